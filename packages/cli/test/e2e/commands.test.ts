/**
 * Every server command of the built `twofold` binary against twofold's everything server over
 * stdio and HTTP, in both eras, and against `@modelcontextprotocol/server-everything` (legacy,
 * stdio): `--json` output parsed and checked, human output spot-checked.
 */
import { describe, expect, it } from 'vitest';
import {
  everythingHttp,
  everythingStdio,
  jsonOf,
  referenceStdio,
  twofold,
  twofoldInBackground,
} from './support';

interface Target {
  name: string;
  era: 'modern' | 'legacy';
  args: () => Promise<string[]>;
}

const EVERYTHING: Target[] = [
  { name: 'stdio, auto', era: 'modern', args: async () => ['--', ...everythingStdio()] },
  {
    name: 'stdio, legacy',
    era: 'legacy',
    args: async () => ['--era', 'legacy', '--', ...everythingStdio()],
  },
  { name: 'HTTP, auto', era: 'modern', args: async () => ['--url', await everythingHttp()] },
  {
    name: 'HTTP, legacy',
    era: 'legacy',
    args: async () => ['--era', 'legacy', '--url', await everythingHttp()],
  },
];

type Json = Record<string, unknown>;
const names = (items: unknown) => (items as { name: string }[]).map((item) => item.name);

describe.each(EVERYTHING)(
  "twofold's everything server ($name)",
  { timeout: 60_000 },
  ({ era, args }) => {
    it('discover reports the era, versions, server and capabilities', async () => {
      const report = jsonOf(await twofold(['discover', '--json', ...(await args())]));
      expect(report).toMatchObject({ era, serverInfo: { name: expect.any(String) } });
      expect(report.protocolVersion).toBe(era === 'modern' ? '2026-07-28' : '2025-11-25');
      expect(report.capabilities).toHaveProperty('tools');
    });

    it('tools list and tools call, with key=value arguments coerced by the schema', async () => {
      const target = await args();
      const listed = jsonOf(await twofold(['tools', 'list', '--json', ...target]));
      expect(names(listed.tools)).toEqual(
        expect.arrayContaining(['add', 'echo', 'test_simple_text']),
      );
      const sum = await twofold(['tools', 'call', 'add', 'a=2', 'b=40', '--json', ...target]);
      expect(sum.code).toBe(0);
      expect(jsonOf(sum)).toMatchObject({ structuredContent: { sum: 42 } });
      const echo = await twofold(['tools', 'call', 'echo', 'message=hello there', ...target]);
      expect(echo).toMatchObject({ code: 0, stdout: 'hello there\n' });
    });

    it('a tool error result exits 1; a progress stream still ends in the result', async () => {
      const target = await args();
      const failed = await twofold(['tools', 'call', 'test_error_handling', ...target]);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain('returned an error');
      const progress = await twofold(['tools', 'call', 'test_tool_with_progress', ...target]);
      expect(progress).toMatchObject({ code: 0, stdout: 'Progress reported\n' });
    });

    it('resources list, templates and read', async () => {
      const target = await args();
      const resources = jsonOf(await twofold(['resources', 'list', '--json', ...target]));
      expect((resources.resources as Json[]).map((r) => r.uri)).toContain('test://static-text');
      const templates = jsonOf(await twofold(['resources', 'templates', '--json', ...target]));
      expect((templates.resourceTemplates as Json[]).map((t) => t.uriTemplate)).toContain(
        'test://template/{id}/data',
      );
      const read = await twofold(['resources', 'read', 'test://static-text', ...target]);
      expect(read.code).toBe(0);
      expect(read.stdout).toContain('This is the content of the static text resource.');
      const blob = jsonOf(
        await twofold(['resources', 'read', 'test://static-binary', '--json', ...target]),
      );
      expect((blob.contents as Json[])[0]).toMatchObject({
        mimeType: 'image/png',
        blob: expect.any(String),
      });
    });

    it('prompts list and get; complete', async () => {
      const target = await args();
      const prompts = jsonOf(await twofold(['prompts', 'list', '--json', ...target]));
      expect(names(prompts.prompts)).toContain('test_prompt_with_arguments');
      const got = jsonOf(
        await twofold([
          'prompts',
          'get',
          'test_prompt_with_arguments',
          'arg1=a',
          'arg2=b',
          '--json',
          ...target,
        ]),
      );
      expect(JSON.stringify(got.messages)).toContain('arg1');
      const completed = await twofold([
        'complete',
        '--resource',
        'test://template/{id}/data',
        'id=1',
        ...target,
      ]);
      expect(completed).toMatchObject({ code: 0, stdout: '1\n123\n' });
    });
  },
);

describe('listen (HTTP, both eras)', { timeout: 60_000 }, () => {
  it.each(['modern', 'legacy'] as const)(
    '%s: prints each change as NDJSON until interrupted',
    async (era) => {
      const url = await everythingHttp();
      const listening = twofoldInBackground([
        'listen',
        '--tools',
        '--era',
        era === 'modern' ? 'auto' : 'legacy',
        '--url',
        url,
      ]);
      await listening.waitFor('listening (toolsListChanged');
      expect(
        (await twofold(['tools', 'call', 'test_trigger_tool_change', '--url', url])).code,
      ).toBe(0);
      await listening.waitFor('"type":"toolsListChanged"');
      const ended = await listening.interrupt();
      expect(ended.code).toBe(130);
      const line = JSON.parse(ended.stdout.trim().split('\n')[0] as string);
      expect(line).toMatchObject({ type: 'toolsListChanged', at: expect.any(String) });
    },
  );
});

describe('@modelcontextprotocol/server-everything (legacy, stdio)', { timeout: 60_000 }, () => {
  const target = () => ['--', ...referenceStdio()];

  it('discover, tools, resources, prompts and complete', async () => {
    const report = jsonOf(await twofold(['discover', '--json', ...target()]));
    expect(report).toMatchObject({ era: 'legacy', serverInfo: { name: 'mcp-servers/everything' } });
    expect(names(jsonOf(await twofold(['tools', 'list', '--json', ...target()])).tools)).toContain(
      'get-sum',
    );
    const sum = jsonOf(
      await twofold(['tools', 'call', 'get-sum', 'a=1', 'b=2', '--json', ...target()]),
    );
    expect(JSON.stringify(sum.content)).toContain('3');
    const uri = 'demo://resource/static/document/architecture.md';
    const read = await twofold(['resources', 'read', uri, ...target()]);
    expect(read.code).toBe(0);
    expect(read.stdout.length).toBeGreaterThan(100);
    const templates = jsonOf(await twofold(['resources', 'templates', '--json', ...target()]));
    expect((templates.resourceTemplates as Json[]).length).toBeGreaterThan(0);
    const got = await twofold(['prompts', 'get', 'args-prompt', 'city=Paris', ...target()]);
    expect(got.stdout).toContain('Paris');
    const completed = await twofold([
      'complete',
      '--prompt',
      'completable-prompt',
      'department=E',
      ...target(),
    ]);
    expect(completed.code).toBe(0);
    expect(completed.stdout).toContain('Engineering');
  });
});
