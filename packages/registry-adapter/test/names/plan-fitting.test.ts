/**
 * `planNames` when names have to be fitted: long names, invalid characters, custom rules, one
 * server's tools fitting to the same name, prefixed names meeting bare ones, and determinism.
 */
import { describe, expect, it } from 'vitest';
import { type NamePlan, type PlanServer, planNames } from '../../src/names/plan';
import { isValidName, resolveNameRules } from '../../src/names/rules';
import type { ConflictPolicy } from '../../src/names/types';

const rules = resolveNameRules();
const POLICIES: ConflictPolicy[] = ['error', 'first-wins', 'prefix-on-collision', 'always-prefix'];

function summary(plan: NamePlan): { names: string[]; skipped: string[] } {
  return {
    names: plan.assignments.map((a) => `${a.server}/${a.tool}=${a.name}`),
    skipped: plan.skipped.map((s) => `${s.server}/${s.tool}:${s.reason}`),
  };
}

const hostNames = (plan: NamePlan) => plan.assignments.map((a) => a.name);

describe('planNames: long names', () => {
  const long = `${'x'.repeat(190)}_tool_a`;

  it.each(POLICIES)('shortens a 200-character tool name to 64 valid characters (%s)', (policy) => {
    const plan = planNames([{ server: 'srv', tools: [long] }], policy, rules);
    expect(plan.skipped).toEqual([]);
    const [name] = hostNames(plan);
    expect(name).toHaveLength(64);
    expect(isValidName(name ?? '', rules)).toBe(true);
    expect(name).toMatch(/_[0-9a-f]{8}$/);
  });

  it('gives the same long tool the same name on every plan', () => {
    const once = planNames([{ server: 'srv', tools: [long] }], 'error', rules);
    const again = planNames(
      [{ server: 'srv', tools: [`${'x'.repeat(190)}_tool_a`] }],
      'error',
      rules,
    );
    expect(hostNames(again)).toEqual(hostNames(once));
  });

  it('keeps two long names sharing their first 64 characters apart', () => {
    const other = `${'x'.repeat(190)}_tool_b`;
    const plan = planNames([{ server: 'srv', tools: [long, other] }], 'error', rules);
    expect(plan.skipped).toEqual([]);
    const [a, b] = hostNames(plan);
    expect(a).not.toBe(b);
    expect(a?.slice(0, 55)).toBe(b?.slice(0, 55));
  });

  it('shortens a prefixed name that grows past 64 characters', () => {
    const server = 's'.repeat(40);
    const tool = 't'.repeat(40);
    const plan = planNames(
      [
        { server, tools: [tool] },
        { server: 'other', tools: [tool] },
      ],
      'prefix-on-collision',
      rules,
    );
    const [first, second] = hostNames(plan);
    expect(first).toHaveLength(64);
    expect(first?.startsWith(`${server}__t`)).toBe(true);
    expect(second).toBe(`other__${tool}`);
  });

  it('uses a custom maxLength above 64 with the default characters', () => {
    const wide = resolveNameRules({ maxLength: 100 });
    const plan = planNames([{ server: 'srv', tools: ['y'.repeat(200), 'short'] }], 'error', wide);
    expect(plan.skipped).toEqual([]);
    expect(hostNames(plan).map((n) => n.length)).toEqual([100, 5]);
  });

  it('uses a custom maxLength below 64', () => {
    const narrow = resolveNameRules({ maxLength: 16 });
    const plan = planNames(
      [{ server: 'srv', tools: ['get_current_weather', 'ok'] }],
      'error',
      narrow,
    );
    expect(summary(plan).names).toEqual([
      expect.stringMatching(/^srv\/get_current_weather=get_cur_[0-9a-f]{8}$/),
      'srv/ok=ok',
    ]);
  });
});

describe('planNames: invalid characters', () => {
  it('replaces invalid characters in tool and server names', () => {
    const plan = planNames([{ server: 'my server', tools: ['read.file'] }], 'always-prefix', rules);
    expect(summary(plan).names).toEqual(['my server/read.file=my_server__read_file']);
  });

  it.each<[ConflictPolicy, string[], string[]]>([
    ['error', ['a/read.file=read_file'], ['b/read_file:conflict']],
    ['first-wins', ['a/read.file=read_file'], ['b/read_file:conflict']],
    ['prefix-on-collision', ['a/read.file=a__read_file', 'b/read_file=b__read_file'], []],
  ])('treats names that fit to the same name as a clash (%s)', (policy, names, skipped) => {
    const servers = [
      { server: 'a', tools: ['read.file'] },
      { server: 'b', tools: ['read_file'] },
    ];
    const plan = planNames(servers, policy, rules);
    expect(summary(plan)).toEqual({ names, skipped });
    expect(plan.conflicts[0]?.name).toBe('read_file');
  });

  it('skips a tool whose name fails a custom pattern, as invalid-name', () => {
    const lower = { pattern: /^[a-z_]{1,30}$/, maxLength: 30 };
    const plan = planNames([{ server: 'srv', tools: ['get_thing', 'Get-Thing'] }], 'error', lower);
    expect(summary(plan)).toEqual({
      names: ['srv/get_thing=get_thing'],
      skipped: ['srv/Get-Thing:invalid-name'],
    });
    expect(plan.skipped[0]?.message).toBe(
      'no valid host name for tool "Get-Thing" of server "srv": "Get-Thing" does not match /^[a-z_]{1,30}$/',
    );
  });

  it('accepts characters a custom pattern allows', () => {
    const dotted = { pattern: /^[a-z.]+$/, maxLength: 64 };
    const plan = planNames([{ server: 'srv', tools: ['fs.read'] }], 'error', dotted);
    expect(hostNames(plan)).toEqual(['fs.read']);
  });
});

describe('planNames: one server, two tools fitting to the same name', () => {
  const servers: PlanServer[] = [{ server: 'fs', tools: ['read.file', 'read file', 'write'] }];

  it.each(POLICIES)('keeps the first the server listed (%s)', (policy) => {
    const plan = planNames(servers, policy, rules);
    const prefix = policy === 'always-prefix' ? 'fs__' : '';
    expect(summary(plan)).toEqual({
      names: [`fs/read.file=${prefix}read_file`, `fs/write=${prefix}write`],
      skipped: ['fs/read file:conflict'],
    });
    expect(plan.skipped[0]?.message).toBe(
      'tool "read file" of server "fs" becomes "read_file", like its tool "read.file"',
    );
    expect(plan.conflicts).toContainEqual({
      name: 'read_file',
      claimants: [
        { server: 'fs', tool: 'read.file' },
        { server: 'fs', tool: 'read file' },
      ],
    });
  });

  it('is not a cross-server clash for prefix-on-collision', () => {
    // The sibling is dropped before grouping, so the kept tool stays bare.
    const plan = planNames(servers, 'prefix-on-collision', rules);
    expect(hostNames(plan)).toEqual(['read_file', 'write']);
  });
});

describe('planNames: prefixed names meeting bare names', () => {
  it('lets the earlier claimant keep a name that a prefix produces again', () => {
    const servers = [
      { server: 'a', tools: ['x'] },
      { server: 'b', tools: ['x', 'a__x'] },
    ];
    const plan = planNames(servers, 'prefix-on-collision', rules);
    expect(summary(plan)).toEqual({
      names: ['a/x=a__x', 'b/x=b__x'],
      skipped: ['b/a__x:conflict'],
    });
    expect(plan.conflicts).toContainEqual({
      name: 'a__x',
      claimants: [
        { server: 'a', tool: 'x' },
        { server: 'b', tool: 'a__x' },
      ],
    });
  });

  it('never assigns a host name twice, whatever the policy', () => {
    const servers = [
      { server: 'a', tools: ['x', 'b__x', 'y'] },
      { server: 'b', tools: ['x', 'a__y', 'y'] },
      { server: 'a_', tools: ['_x'] },
    ];
    for (const policy of POLICIES) {
      const names = hostNames(planNames(servers, policy, rules));
      expect(new Set(names).size, String(policy)).toBe(names.length);
    }
  });
});

describe('planNames: determinism', () => {
  const servers: PlanServer[] = [
    { server: 'github', tools: ['search', 'create.issue', 'z'.repeat(120)] },
    { server: 'gitlab', tools: ['search', 'create issue', 'merge'] },
    { server: 'jira', tools: ['search'] },
  ];
  const policies: ConflictPolicy[] = [...POLICIES, ({ server, tool }) => `${server}-${tool}`];

  it.each(policies)('plans equal copies of the input the same (%s)', (policy) => {
    const copy = structuredClone(servers);
    const first = planNames(servers, policy, rules);
    expect(planNames(copy, policy, rules)).toEqual(first);
    expect(planNames(servers, policy, rules)).toEqual(first);
    // A fresh rules object with the same content plans the same too.
    expect(planNames(copy, policy, resolveNameRules({}))).toEqual(first);
  });

  it('does not change its input', () => {
    const copy = structuredClone(servers);
    planNames(copy, 'prefix-on-collision', rules);
    expect(copy).toEqual(servers);
  });

  it('lists assignments and skipped tools in server order, then list order', () => {
    const plan = planNames(servers, 'first-wins', rules);
    expect(summary(plan).names).toEqual([
      'github/search=search',
      'github/create.issue=create_issue',
      expect.stringMatching(/^github\/z+=z{55}_[0-9a-f]{8}$/),
      'gitlab/merge=merge',
    ]);
    expect(summary(plan).skipped).toEqual([
      'gitlab/search:conflict',
      'gitlab/create issue:conflict',
      'jira/search:conflict',
    ]);
  });

  it('plans nothing for no servers or no tools', () => {
    const empty = { assignments: [], skipped: [], conflicts: [] };
    expect(planNames([], 'error', rules)).toEqual(empty);
    expect(planNames([{ server: 'a', tools: [] }], 'always-prefix', rules)).toEqual(empty);
  });
});
