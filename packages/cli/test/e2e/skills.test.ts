/**
 * `twofold skills list | read` of the built binary against twofold's everything server over
 * stdio and HTTP, in both eras, and against a server whose skill entry does not match the
 * content it serves (refused, exit 65, nothing printed on stdout).
 */
import { type ExtensionMethod, McpServer } from '@twofold/server/experimental';
import { createServerHttpHandler } from '@twofold/server/http';
import { defineSkill } from '@twofold/server/skills';
import { serve } from '@twofold/transports/node';
import { afterEach, describe, expect, it } from 'vitest';
import { everythingHttp, everythingStdio, jsonOf, twofold } from './support';

const TARGETS = [
  { name: 'stdio, auto', args: async () => ['--', ...everythingStdio()] },
  { name: 'HTTP, legacy', args: async () => ['--era', 'legacy', '--url', await everythingHttp()] },
];

describe.each(TARGETS)('twofold skills ($name)', { timeout: 60_000 }, ({ args }) => {
  it('lists the skills, and reads a SKILL.md and a supporting file, verified', async () => {
    const target = await args();
    const listed = jsonOf<{ skills: { uri: string; frontmatter: { name: string } }[] }>(
      await twofold(['skills', 'list', '--json', ...target]),
    );
    expect(listed.skills.map((s) => s.frontmatter.name)).toEqual(['code-review', 'pdf-processing']);
    const table = await twofold(['skills', 'list', ...target]);
    expect(table.stdout).toMatch(
      /pdf-processing\s+skill:\/\/pdf-processing\/SKILL\.md\s+2\s+Extract text/,
    );
    const skill = await twofold(['skills', 'read', 'pdf-processing', ...target]);
    expect(skill).toMatchObject({ code: 0 });
    expect(skill.stdout).toMatch(/^---\nname: pdf-processing\n/);
    const file = await twofold([
      'skills',
      'read',
      'pdf-processing',
      'references/FORMS.md',
      ...target,
    ]);
    expect(file).toMatchObject({ code: 0, stdout: expect.stringMatching(/^# Filling forms\n/) });
    const unknown = await twofold(['skills', 'read', 'no-such-skill', ...target]);
    expect(unknown.code).toBe(69);
    expect(unknown.stderr).toContain('no skill named "no-such-skill"');
  });
});

const endpoints: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const endpoint of endpoints.splice(0)) await endpoint.close();
});

/** A server whose listed SKILL.md size does not match what it serves. */
class LyingServer extends McpServer {
  constructor() {
    super({ name: 'lying', version: '1.0.0' });
    this.registerSkill(
      defineSkill({ skillMd: '---\nname: lie\ndescription: Says one thing\n---\nbody\n' }),
    );
  }

  override extensionMethod(method: string): ExtensionMethod | undefined {
    const honest = super.extensionMethod(method);
    if (method !== 'skills/list' || honest === undefined) return honest;
    return {
      params: honest.params,
      call: async (params) => {
        const { result, cache } = await honest.call(params);
        const [entry] = result.skills as { resources: { size: number }[] }[];
        const file = entry?.resources[0];
        if (file) file.size += 1;
        return { result, cache };
      },
    };
  }
}

describe('twofold skills read, refusing', () => {
  it('a file that does not match its entry exits 65 and prints none of it', async () => {
    const endpoint = await serve(createServerHttpHandler(new LyingServer()));
    endpoints.push(endpoint);
    const run = await twofold(['skills', 'read', 'lie', '--url', endpoint.url.href]);
    expect(run.code).toBe(65);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('refused');
  });

  it('a server without the extension exits 69 and says so', async () => {
    const endpoint = await serve(
      createServerHttpHandler(new McpServer({ name: 'plain', version: '1.0.0' })),
    );
    endpoints.push(endpoint);
    const run = await twofold(['skills', 'list', '--url', endpoint.url.href]);
    expect(run.code).toBe(69);
    expect(run.stderr).toContain('declares no skills');
  });
});
