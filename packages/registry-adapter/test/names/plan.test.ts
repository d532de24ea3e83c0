/**
 * `planNames` under each conflict policy, as tables: two servers offering the same tool, three
 * servers, custom resolvers that rename, decline or return a clashing name.
 */
import { describe, expect, it } from 'vitest';
import { type NamePlan, type PlanServer, planNames } from '../../src/names/plan';
import { resolveNameRules } from '../../src/names/rules';
import type { ConflictPolicy, ConflictResolver } from '../../src/names/types';

const rules = resolveNameRules();

/** `server/tool=name` per assignment and `server/tool:reason` per skipped tool, in plan order. */
function summary(plan: NamePlan): { names: string[]; skipped: string[] } {
  return {
    names: plan.assignments.map((a) => `${a.server}/${a.tool}=${a.name}`),
    skipped: plan.skipped.map((s) => `${s.server}/${s.tool}:${s.reason}`),
  };
}

const twoServers: PlanServer[] = [
  { server: 'github', tools: ['search', 'create_issue'] },
  { server: 'gitlab', tools: ['search', 'merge'] },
];

describe('planNames: two servers with the same tool name', () => {
  const suffixResolver: ConflictResolver = ({ server, tool }) => `${tool}_${server}`;
  it.each<[string, ConflictPolicy, string[], string[]]>([
    [
      'error',
      'error',
      ['github/search=search', 'github/create_issue=create_issue', 'gitlab/merge=merge'],
      ['gitlab/search:conflict'],
    ],
    [
      'first-wins',
      'first-wins',
      ['github/search=search', 'github/create_issue=create_issue', 'gitlab/merge=merge'],
      ['gitlab/search:conflict'],
    ],
    [
      'prefix-on-collision',
      'prefix-on-collision',
      [
        'github/search=github__search',
        'github/create_issue=create_issue',
        'gitlab/search=gitlab__search',
        'gitlab/merge=merge',
      ],
      [],
    ],
    [
      'always-prefix',
      'always-prefix',
      [
        'github/search=github__search',
        'github/create_issue=github__create_issue',
        'gitlab/search=gitlab__search',
        'gitlab/merge=gitlab__merge',
      ],
      [],
    ],
    [
      'a resolver',
      suffixResolver,
      [
        'github/search=search_github',
        'github/create_issue=create_issue',
        'gitlab/search=search_gitlab',
        'gitlab/merge=merge',
      ],
      [],
    ],
  ])('%s', (_label, policy, names, skipped) => {
    const plan = planNames(twoServers, policy, rules);
    expect(summary(plan)).toEqual({ names, skipped });
    // Every policy reports the clash of the bare name, naming both claimants in server order.
    expect(plan.conflicts).toEqual([
      {
        name: 'search',
        claimants: [
          { server: 'github', tool: 'search' },
          { server: 'gitlab', tool: 'search' },
        ],
      },
    ]);
  });

  it.each([
    ['error', 'refused'],
    ['first-wins', 'left out'],
  ] as const)('%s says which server keeps the name (never silently)', (policy, verb) => {
    const [skip] = planNames(twoServers, policy, rules).skipped;
    expect(skip?.message).toBe(
      `tool "search" of server "gitlab" ${verb}: server "github" already offers "search"`,
    );
  });

  it('lets the earlier server win, whatever the later one lists', () => {
    const reversed = [...twoServers].reverse();
    expect(summary(planNames(reversed, 'first-wins', rules)).skipped).toEqual([
      'github/search:conflict',
    ]);
  });

  it('prefix-on-collision names depend on the tools, not on the server order', () => {
    const names = (servers: PlanServer[]) =>
      planNames(servers, 'prefix-on-collision', rules)
        .assignments.map((a) => a.name)
        .sort();
    expect(names([...twoServers].reverse())).toEqual(names(twoServers));
  });
});

describe('planNames: three claimants', () => {
  const three: PlanServer[] = [
    { server: 'a', tools: ['x'] },
    { server: 'b', tools: ['x'] },
    { server: 'c', tools: ['x'] },
  ];

  it.each<[ConflictPolicy, string[], string[]]>([
    ['error', ['a/x=x'], ['b/x:conflict', 'c/x:conflict']],
    ['first-wins', ['a/x=x'], ['b/x:conflict', 'c/x:conflict']],
    ['prefix-on-collision', ['a/x=a__x', 'b/x=b__x', 'c/x=c__x'], []],
  ])('%s', (policy, names, skipped) => {
    const plan = planNames(three, policy, rules);
    expect(summary(plan)).toEqual({ names, skipped });
    expect(plan.conflicts).toHaveLength(1);
    expect(plan.conflicts[0]?.claimants.map((c) => c.server)).toEqual(['a', 'b', 'c']);
  });

  it('tells the resolver every other claimant, in server order', () => {
    const seen: unknown[] = [];
    planNames(
      three,
      (clash) => {
        seen.push(clash);
        return `${clash.server}_x`;
      },
      rules,
    );
    expect(seen).toEqual([
      {
        server: 'a',
        tool: 'x',
        clashesWith: [
          { server: 'b', tool: 'x' },
          { server: 'c', tool: 'x' },
        ],
      },
      {
        server: 'b',
        tool: 'x',
        clashesWith: [
          { server: 'a', tool: 'x' },
          { server: 'c', tool: 'x' },
        ],
      },
      {
        server: 'c',
        tool: 'x',
        clashesWith: [
          { server: 'a', tool: 'x' },
          { server: 'b', tool: 'x' },
        ],
      },
    ]);
  });
});

describe('planNames: custom resolvers', () => {
  it('is not consulted for names without a clash', () => {
    let calls = 0;
    const plan = planNames(
      [
        { server: 'a', tools: ['x'] },
        { server: 'b', tools: ['y'] },
      ],
      () => {
        calls++;
        return 'never';
      },
      rules,
    );
    expect(calls).toBe(0);
    expect(summary(plan).names).toEqual(['a/x=x', 'b/y=y']);
  });

  it('leaves out a tool the resolver declines, saying so', () => {
    const plan = planNames(
      twoServers,
      ({ server, tool }) => (server === 'github' ? tool : undefined),
      rules,
    );
    expect(summary(plan)).toEqual({
      names: ['github/search=search', 'github/create_issue=create_issue', 'gitlab/merge=merge'],
      skipped: ['gitlab/search:resolver-declined'],
    });
    expect(plan.skipped[0]?.message).toBe(
      'the conflict resolver left out tool "search" of server "gitlab" (clashes with "github")',
    );
  });

  it('skips a resolver name that clashes again, and reports the second clash', () => {
    const plan = planNames(twoServers, () => 'search', rules);
    expect(summary(plan)).toEqual({
      names: ['github/search=search', 'github/create_issue=create_issue', 'gitlab/merge=merge'],
      skipped: ['gitlab/search:conflict'],
    });
    expect(plan.skipped[0]?.message).toBe(
      'host name "search" of tool "search" (server "gitlab") is taken by tool "search" of server "github"',
    );
    expect(plan.conflicts.map((c) => c.name)).toEqual(['search', 'search']);
    expect(plan.conflicts[1]?.claimants).toEqual([
      { server: 'github', tool: 'search' },
      { server: 'gitlab', tool: 'search' },
    ]);
  });

  it('skips a resolver name that an earlier tool holds as its own name', () => {
    // Documented order: an earlier tool (server order, then list order) keeps a contested name.
    const plan = planNames(
      twoServers,
      ({ server }) => (server === 'github' ? 'merge' : 'x'),
      rules,
    );
    expect(summary(plan)).toEqual({
      names: ['github/search=merge', 'github/create_issue=create_issue', 'gitlab/search=x'],
      skipped: ['gitlab/merge:conflict'],
    });
  });

  it('fits a resolver name to the rules', () => {
    const plan = planNames(twoServers, ({ server }) => `find it (${server})!`, rules);
    expect(summary(plan).names).toContain('github/search=find_it__github__');
    const long = planNames(twoServers, ({ server }) => `${server}_${'z'.repeat(100)}`, rules);
    for (const { name } of long.assignments) expect(name.length).toBeLessThanOrEqual(64);
    expect(new Set(long.assignments.map((a) => a.name)).size).toBe(long.assignments.length);
  });

  it('skips a resolver name the custom pattern refuses as invalid-name', () => {
    const lower = { pattern: /^[a-z_]+$/, maxLength: 64 };
    const plan = planNames(twoServers, ({ server }) => `Search-${server}`, lower);
    expect(summary(plan).skipped).toEqual([
      'github/search:invalid-name',
      'gitlab/search:invalid-name',
    ]);
    expect(plan.skipped[0]?.message).toContain('"Search-github" does not match /^[a-z_]+$/');
  });
});
