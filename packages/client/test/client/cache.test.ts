/**
 * The result cache through `McpClient` against a real modern twofold server whose results carry
 * `ttlMs` / `cacheScope` (the server's `cache` option): hits, the cache modes, invalidation by
 * listen notifications, principal partitions over a shared store, and turning it off.
 */
import type { CachePolicy } from '@twofold/server/experimental';
import { describe, expect, it } from 'vitest';
import { InMemoryCacheStore } from '../../src/cache/memory-store';
import type { ChangeStream, McpClientOptions } from '../../src/types';
import { connectClient, serveTarget, useClientCleanups } from '../support/client-harness';
import { buildApiServer } from '../support/client-server';

useClientCleanups();

const PUBLIC: CachePolicy = { ttlMs: 60_000, cacheScope: 'public' };
const PRIVATE: CachePolicy = { ttlMs: 60_000, cacheScope: 'private' };

async function setup(cache: CachePolicy | undefined, options: Partial<McpClientOptions> = {}) {
  const server = buildApiServer(cache === undefined ? {} : { cache });
  const served = serveTarget(server);
  const connected = await connectClient(served.target, { era: 'modern', ...options });
  return { server, served, ...connected };
}

async function nextChange(stream: ChangeStream) {
  return (await stream[Symbol.asyncIterator]().next()).value;
}

const names = (r: { tools: { name: string }[] }) => r.tools.map((t) => t.name);

describe('McpClient result cache (modern)', () => {
  it('serves a second listTools, readResource and discover from the cache', async () => {
    const { client, served } = await setup(PUBLIC);
    const first = await client.listTools();
    expect(first).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    const second = await client.listTools();
    expect(second).toEqual(first);
    expect(served.requests('tools/list')).toHaveLength(1);

    await client.readResource('test://one');
    await client.readResource('test://one');
    expect(served.requests('resources/read')).toHaveLength(1);
    // Another URI is another entry.
    await client.readResource('test://two');
    expect(served.requests('resources/read')).toHaveLength(2);

    const discovered = served.requests('server/discover').length;
    await client.discover();
    await client.discover();
    expect(served.requests('server/discover')).toHaveLength(discovered + 1);
  });

  it('keeps pages apart: each cursor is its own entry', async () => {
    const server = buildApiServer({ cache: PUBLIC, pageSize: 2 });
    const served = serveTarget(server);
    const { client } = await connectClient(served.target, { era: 'modern' });
    const all = async () => {
      const out: string[] = [];
      for await (const tool of client.iterateTools()) out.push(tool.name);
      return out;
    };
    const once = await all();
    expect(await all()).toEqual(once);
    expect(served.requests('tools/list')).toHaveLength(2);
  });

  it("'bypass' neither reads nor writes the cache", async () => {
    const { client, served } = await setup(PUBLIC);
    await client.listTools();
    await client.listTools({}, { cache: 'bypass' });
    expect(served.requests('tools/list')).toHaveLength(2);
    await client.listTools();
    expect(served.requests('tools/list')).toHaveLength(2);

    await client.listPrompts({}, { cache: 'bypass' });
    await client.listPrompts();
    expect(served.requests('prompts/list')).toHaveLength(2);
  });

  it("'refresh' skips the read and stores the fresh result", async () => {
    const { client, served, server } = await setup(PUBLIC);
    const stale = await client.listTools();
    // Without a listen stream a modern client hears of no change: the entry stays.
    server.registerTool({ name: 'fresh', handler: () => 'fresh' });
    expect(names(await client.listTools())).toEqual(names(stale));
    expect(served.requests('tools/list')).toHaveLength(1);

    const refreshed = await client.listTools({}, { cache: 'refresh' });
    expect(names(refreshed)).toContain('fresh');
    expect(served.requests('tools/list')).toHaveLength(2);
    expect(names(await client.listTools())).toContain('fresh');
    expect(served.requests('tools/list')).toHaveLength(2);
  });

  it('drops entries when a listen stream reports the change', async () => {
    const { client, served, server } = await setup(PUBLIC);
    const stream = client.listen({ toolsListChanged: true, resourceSubscriptions: ['test://one'] });
    await stream.acknowledged;
    await client.listTools();
    await client.listTools();
    await client.readResource('test://one');
    await client.readResource('test://two');
    expect(served.requests('tools/list')).toHaveLength(1);

    server.registerTool({ name: 'fresh', handler: () => 'fresh' });
    expect(await nextChange(stream)).toEqual({ type: 'toolsListChanged' });
    expect(names(await client.listTools())).toContain('fresh');
    expect(served.requests('tools/list')).toHaveLength(2);

    server.notifyResourceUpdated('test://one');
    expect(await nextChange(stream)).toEqual({ type: 'resourceUpdated', uri: 'test://one' });
    await client.readResource('test://one');
    await client.readResource('test://two');
    // Only the updated URI was read again.
    expect(served.requests('resources/read').map((r) => r.params?.uri)).toEqual([
      'test://one',
      'test://two',
      'test://one',
    ]);
    await stream.close();
  });

  it('partitions private entries by principal over a shared store', async () => {
    const store = new InMemoryCacheStore();
    const served = serveTarget(buildApiServer({ cache: PRIVATE }));
    const alice = await connectClient(served.target, {
      era: 'modern',
      cache: store,
      principal: 'alice',
    });
    const bob = await connectClient(served.target, {
      era: 'modern',
      cache: store,
      principal: 'bob',
    });
    const alice2 = await connectClient(served.target, {
      era: 'modern',
      cache: store,
      principal: 'alice',
    });
    await alice.client.listTools();
    expect(served.requests('tools/list')).toHaveLength(1);
    await bob.client.listTools();
    expect(served.requests('tools/list')).toHaveLength(2);
    // Another client of the same principal reads alice's entry.
    await alice2.client.listTools();
    await bob.client.listTools();
    expect(served.requests('tools/list')).toHaveLength(2);
    expect(store.size).toBe(2);
  });

  it('shares public entries across principals and clients', async () => {
    const store = new InMemoryCacheStore();
    const served = serveTarget(buildApiServer({ cache: PUBLIC }));
    const alice = await connectClient(served.target, {
      era: 'modern',
      cache: store,
      principal: 'alice',
    });
    const bob = await connectClient(served.target, {
      era: 'modern',
      cache: store,
      principal: 'bob',
    });
    await alice.client.listTools();
    await bob.client.listTools();
    expect(served.requests('tools/list')).toHaveLength(1);
    // Another server key is another cache.
    const other = serveTarget(buildApiServer({ cache: PUBLIC }), 'memory:other');
    const carol = await connectClient(other.target, { era: 'modern', cache: store });
    await carol.client.listTools();
    expect(other.requests('tools/list')).toHaveLength(1);
  });

  it('asks every time with cache: false, or when results have no ttl', async () => {
    const off = await setup(PUBLIC, { cache: false });
    await off.client.listTools();
    await off.client.listTools();
    await off.client.readResource('test://one');
    await off.client.readResource('test://one');
    expect(off.served.requests('tools/list')).toHaveLength(2);
    expect(off.served.requests('resources/read')).toHaveLength(2);

    // The server's default policy (ttlMs 0): never reused.
    const store = new InMemoryCacheStore();
    const noTtl = await setup(undefined, { cache: store });
    const listed = await noTtl.client.listTools();
    expect(listed.ttlMs).toBe(0);
    await noTtl.client.listTools();
    expect(noTtl.served.requests('tools/list')).toHaveLength(2);
    expect(store.size).toBe(0);
  });

  it('never caches calls that are not cacheable', async () => {
    const { client, served } = await setup(PUBLIC);
    await client.callTool('echo', { text: 'a' });
    await client.callTool('echo', { text: 'a' });
    await client.getPrompt('greet');
    await client.getPrompt('greet');
    expect(served.requests('tools/call')).toHaveLength(2);
    expect(served.requests('prompts/get')).toHaveLength(2);
  });
});
