/**
 * `SkillsClient` against a real twofold server serving skills, in both eras: listing reads no
 * file, loading reads and verifies SKILL.md only, supporting files are read when asked, and a
 * server whose entry does not match the content (digest, size, frontmatter) is refused with a
 * `SkillVerificationError`. The lying server is a real `McpServer` whose `skills/list` is
 * replaced with a tampered entry.
 */
import { LocalErrorCode, type SkillEntry, skillDigest } from '@twofold/protocol/experimental';
import { type ExtensionMethod, McpServer } from '@twofold/server/experimental';
import { defineSkill } from '@twofold/server/skills';
import { describe, expect, it } from 'vitest';
import { SkillVerificationError } from '../src/skills/errors';
import { SkillsClient } from '../src/skills/skills-client';
import {
  connectClient,
  ERAS,
  rejectionOf,
  serveTarget,
  useClientCleanups,
} from './support/client-harness';

useClientCleanups();

const SKILL_MD =
  '---\nname: pdf-processing\ndescription: Fill PDF forms\n---\n\nRead references/FORMS.md.\n';
const FORMS = '# Forms\n';
const FORMS_URI = 'skill://pdf-processing/references/FORMS.md';

function skillServer(): McpServer {
  const server = new McpServer({ name: 'skills', version: '1.0.0' });
  server.registerSkill(defineSkill({ skillMd: SKILL_MD, files: { 'references/FORMS.md': FORMS } }));
  return server;
}

/** A server whose `skills/list` entry is altered by `tamper` (the files stay as served). */
class TamperingServer extends McpServer {
  constructor(private readonly tamper: (entry: SkillEntry) => Promise<SkillEntry>) {
    super({ name: 'tampering', version: '1.0.0' });
    this.registerSkill(defineSkill({ skillMd: SKILL_MD, files: { 'references/FORMS.md': FORMS } }));
  }

  override extensionMethod(method: string): ExtensionMethod | undefined {
    const honest = super.extensionMethod(method);
    if (method !== 'skills/list' || honest === undefined) return honest;
    return {
      params: honest.params,
      call: async (params) => {
        const { result, cache } = await honest.call(params);
        const skills = await Promise.all((result.skills as SkillEntry[]).map(this.tamper));
        return { result: { ...result, skills }, cache };
      },
    };
  }
}

function withManifest(entry: SkillEntry, change: { digest?: string; size?: number }): SkillEntry {
  if (entry.resources === 'dynamic') throw new Error('expected a file list');
  const resources = entry.resources.map((file) =>
    file.uri === entry.uri ? { ...file, ...change } : file,
  );
  return { ...entry, resources };
}

describe.each(ERAS)('SkillsClient (%s)', (era) => {
  it('lists skills without reading any skill file', async () => {
    const served = serveTarget(skillServer());
    const { client } = await connectClient(served.target, { era });
    const skills = new SkillsClient(client);
    expect(skills.supported).toBe(true);
    const [entry, ...rest] = await skills.list();
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      uri: 'skill://pdf-processing/SKILL.md',
      frontmatter: { name: 'pdf-processing' },
    });
    expect(served.requests('resources/read')).toEqual([]);
  });

  it('loads a skill by name, reading and verifying SKILL.md only', async () => {
    const served = serveTarget(skillServer());
    const { client } = await connectClient(served.target, { era });
    const loaded = await new SkillsClient(client).load('pdf-processing');
    expect(loaded.frontmatter).toEqual({ name: 'pdf-processing', description: 'Fill PDF forms' });
    expect(loaded.body).toBe('\nRead references/FORMS.md.\n');
    expect(loaded.manifest).toMatchObject({
      verified: true,
      mimeType: 'text/markdown',
      text: SKILL_MD,
    });
    expect(served.requests('resources/read').map((r) => r.params?.uri)).toEqual([loaded.entry.uri]);
  });

  it('reads a supporting file when asked, verified, and refuses a file the entry does not list', async () => {
    const served = serveTarget(skillServer());
    const { client } = await connectClient(served.target, { era });
    const skills = new SkillsClient(client);
    const [entry] = await skills.list();
    if (entry === undefined) throw new Error('no skill listed');
    const file = await skills.readFile(entry, 'references/FORMS.md');
    expect(file).toMatchObject({ uri: FORMS_URI, text: FORMS, verified: true });
    const unlisted = await rejectionOf(skills.readFile(entry, 'secrets.txt'));
    expect(unlisted).toBeInstanceOf(SkillVerificationError);
    expect((unlisted as SkillVerificationError).failure).toBe('unlisted');
    expect(served.requests('resources/read').map((r) => r.params?.uri)).toEqual([FORMS_URI]);
  });
});

describe('SkillsClient refuses content that does not match its entry', () => {
  it.each(ERAS)('a digest that does not match the content (%s)', async (era) => {
    const wrong = await skillDigest(SKILL_MD.replace('Read', 'Burn'));
    const served = serveTarget(
      new TamperingServer(async (e) => withManifest(e, { digest: wrong })),
    );
    const { client } = await connectClient(served.target, { era });
    const error = await rejectionOf(new SkillsClient(client).load('pdf-processing'));
    expect(error).toBeInstanceOf(SkillVerificationError);
    expect(error).toMatchObject({
      code: LocalErrorCode.SkillVerificationFailed,
      failure: 'digest',
      uri: 'skill://pdf-processing/SKILL.md',
      details: { expected: wrong, actual: await skillDigest(SKILL_MD) },
    });
  });

  it('a size that does not match the content', async () => {
    const served = serveTarget(new TamperingServer(async (e) => withManifest(e, { size: 3 })));
    const { client } = await connectClient(served.target);
    const error = await rejectionOf(new SkillsClient(client).load('pdf-processing'));
    expect(error).toMatchObject({ failure: 'size', details: { expected: 3 } });
  });

  it('frontmatter that differs from the entry, even with a matching digest', async () => {
    const served = serveTarget(
      new TamperingServer(async (e) => ({
        ...e,
        frontmatter: { ...e.frontmatter, description: 'Harmless' },
      })),
    );
    const { client } = await connectClient(served.target);
    const error = await rejectionOf(new SkillsClient(client).load('pdf-processing'));
    expect(error).toMatchObject({ failure: 'frontmatter' });
  });

  it('a name no skill has', async () => {
    const { client } = await connectClient(serveTarget(skillServer()).target);
    await expect(new SkillsClient(client).load('absent')).rejects.toThrow(
      /no skill named "absent"/,
    );
  });
});
