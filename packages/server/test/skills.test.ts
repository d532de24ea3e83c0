/**
 * The skills extension on the server: registration checks, the capability, `skills/list`
 * (digests, sizes, pages), `skills/get`, `resources/directory/read`, and the files as
 * resources, over a real transport in both eras.
 */
import { createHash } from 'node:crypto';
import { createInMemoryPair } from '@twofold/transports/experimental';
import { describe, expect, it } from 'vitest';
import { serveTransport } from '../src/serve/serve-transport';
import { McpServer } from '../src/server';
import { defineSkill } from '../src/skills';
import { modernParams, TestPeer } from './support/peer';
import { cleanups, errorOf, resultOf, useCleanups } from './support/responses';

useCleanups();

const SKILL_MD =
  '---\nname: pdf-processing\ndescription: Fill PDF forms\nmetadata:\n  author: ada\n---\n\nRead references/FORMS.md.\n';
const FORMS = '# Forms\n\nFill them in — carefully.\n';
const digestOf = (text: string) =>
  `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;

function skillServer(pageSize?: number): McpServer {
  const server = new McpServer({
    name: 'skills',
    version: '1.0.0',
    ...(pageSize ? { pageSize } : {}),
  });
  server.registerSkill(defineSkill({ skillMd: SKILL_MD, files: { 'references/FORMS.md': FORMS } }));
  return server;
}

async function connect(server: McpServer, era: 'modern' | 'legacy') {
  const [clientEnd, serverEnd] = createInMemoryPair();
  await serveTransport(server, serverEnd);
  const peer = new TestPeer(clientEnd);
  await peer.start();
  cleanups.push(() => peer.close());
  if (era === 'legacy') {
    const init = resultOf(
      await peer.request('initialize', {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'c', version: '1' },
      }),
    );
    await peer.notify('notifications/initialized');
    return {
      peer,
      capabilities: init.capabilities,
      params: (p: Record<string, unknown> = {}) => p,
    };
  }
  const discover = resultOf(await peer.request('server/discover', modernParams()));
  return { peer, capabilities: discover.capabilities, params: modernParams };
}

const ENTRY = {
  uri: 'skill://pdf-processing/SKILL.md',
  frontmatter: {
    name: 'pdf-processing',
    description: 'Fill PDF forms',
    metadata: { author: 'ada' },
  },
  resources: [
    {
      uri: 'skill://pdf-processing/SKILL.md',
      digest: digestOf(SKILL_MD),
      size: Buffer.byteLength(SKILL_MD),
    },
    {
      uri: 'skill://pdf-processing/references/FORMS.md',
      digest: digestOf(FORMS),
      size: Buffer.byteLength(FORMS),
    },
  ],
};

describe.each(['modern', 'legacy'] as const)('skills on the server (%s)', (era) => {
  it('declares the extension with directoryRead, beside resources', async () => {
    const { capabilities } = await connect(skillServer(), era);
    expect(capabilities).toMatchObject({
      resources: {},
      extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } },
    });
  });

  it('lists each skill with the digest and byte size of every file', async () => {
    const { peer, params } = await connect(skillServer(), era);
    const listed = resultOf(await peer.request('skills/list', params()));
    expect(listed.skills).toEqual([ENTRY]);
    if (era === 'modern') expect(listed).toMatchObject({ resultType: 'complete', ttlMs: 0 });
    else expect(listed).not.toHaveProperty('resultType');
  });

  it('gets one skill by URI, and answers -32602 with the URI for an unknown one', async () => {
    const { peer, params } = await connect(skillServer(), era);
    const got = resultOf(await peer.request('skills/get', params({ uri: ENTRY.uri })));
    expect(got.skill).toEqual(ENTRY);
    expect(got).not.toHaveProperty('nextCursor');
    const unknown = errorOf(
      await peer.request('skills/get', params({ uri: 'skill://nope/SKILL.md' })),
    );
    expect(unknown).toMatchObject({ code: -32602, data: { uri: 'skill://nope/SKILL.md' } });
    expect(errorOf(await peer.request('skills/get', params())).code).toBe(-32602);
  });

  it('serves the files as resources, SKILL.md named and described by its frontmatter', async () => {
    const { peer, params } = await connect(skillServer(), era);
    const { resources } = resultOf(await peer.request('resources/list', params()));
    expect(resources).toContainEqual(
      expect.objectContaining({
        uri: ENTRY.uri,
        name: 'pdf-processing',
        description: 'Fill PDF forms',
        mimeType: 'text/markdown',
      }),
    );
    const read = resultOf(
      await peer.request('resources/read', params({ uri: ENTRY.resources[1]?.uri })),
    );
    expect(read.contents).toEqual([
      { uri: ENTRY.resources[1]?.uri, mimeType: 'text/markdown', text: FORMS },
    ]);
  });

  it('reads directories: children, subdirectories as inode/directory, -32602 for a file', async () => {
    const { peer, params } = await connect(skillServer(), era);
    const root = resultOf(
      await peer.request('resources/directory/read', params({ uri: 'skill://pdf-processing' })),
    );
    expect(root.resources).toEqual([
      {
        uri: 'skill://pdf-processing/SKILL.md',
        name: 'SKILL.md',
        mimeType: 'text/markdown',
        size: Buffer.byteLength(SKILL_MD),
      },
      { uri: 'skill://pdf-processing/references', name: 'references', mimeType: 'inode/directory' },
    ]);
    const sub = resultOf(
      await peer.request(
        'resources/directory/read',
        params({ uri: 'skill://pdf-processing/references' }),
      ),
    );
    expect(sub.resources).toEqual([
      expect.objectContaining({ uri: ENTRY.resources[1]?.uri, name: 'FORMS.md' }),
    ]);
    const file = errorOf(
      await peer.request('resources/directory/read', params({ uri: ENTRY.uri })),
    );
    expect(file.code).toBe(-32602);
  });
});

describe('skills/list pages and registration', () => {
  it('pages by SKILL.md URI with cursors, one whole entry at a time, and hides disabled skills', async () => {
    const server = skillServer(1);
    const other = server.registerSkill(
      defineSkill({ skillMd: '---\nname: alpha\ndescription: First\n---\n', path: 'acme' }),
    );
    const { peer } = await connect(server, 'modern');
    const first = resultOf(await peer.request('skills/list', modernParams()));
    expect((first.skills as { uri: string }[]).map((s) => s.uri)).toEqual([
      'skill://acme/alpha/SKILL.md',
    ]);
    const second = resultOf(
      await peer.request('skills/list', modernParams({ cursor: first.nextCursor })),
    );
    expect((second.skills as { uri: string }[]).map((s) => s.uri)).toEqual([ENTRY.uri]);
    expect(second).not.toHaveProperty('nextCursor');
    other.disable();
    const after = resultOf(await peer.request('skills/list', modernParams()));
    expect((after.skills as { uri: string }[]).map((s) => s.uri)).toEqual([ENTRY.uri]);
    expect(errorOf(await peer.request('skills/list', modernParams({ cursor: 'bogus' }))).code).toBe(
      -32602,
    );
  });

  it('refuses a SKILL.md without frontmatter, a bad name, a bad path and a duplicate', () => {
    const server = skillServer();
    expect(() => defineSkill({ skillMd: '# no frontmatter\n' })).toThrow(TypeError);
    expect(() => defineSkill({ skillMd: '---\nname: Bad--Name\ndescription: x\n---\n' })).toThrow(
      /lowercase/,
    );
    expect(() =>
      defineSkill({ skillMd: '---\nname: ok\ndescription: x\n---\n', files: { '../up.md': 'x' } }),
    ).toThrow(/relative path/);
    expect(() => server.registerSkill(defineSkill({ skillMd: SKILL_MD }))).toThrow(
      /already registered/,
    );
  });

  it('registers only a skill from defineSkill: a bare definition gets a TypeError that says so', () => {
    const server = new McpServer({ name: 'plain', version: '1.0.0' });
    const definition = { skillMd: SKILL_MD } as unknown as Parameters<
      McpServer['registerSkill']
    >[0];
    expect(() => server.registerSkill(definition)).toThrow(/defineSkill\(\)/);
  });

  it('serves no skills methods and declares no extension without a skill', async () => {
    const { peer, capabilities } = await connect(
      new McpServer({ name: 'plain', version: '1.0.0' }),
      'modern',
    );
    expect(capabilities).not.toHaveProperty('extensions');
    expect(errorOf(await peer.request('skills/list', modernParams())).code).toBe(-32601);
  });
});
