import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  haveBinary,
  startRedis,
  type TestRedis,
} from '../../../config/test-support/redis-server.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(root, '..', '..');
const tsx = join(root, 'node_modules', '.bin', 'tsx');
const run = (file: string, env: Record<string, string> = {}) =>
  execFileSync(tsx, [file], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, ...env },
  });

describe('the wire tour (one modern request checked by the server, step by step)', () => {
  it('runs every step and says so', () => {
    const out = run('src/wire-tour.ts');
    expect(out).toContain('"version":"2026-07-28"');
    expect(out).toContain('"code":-32022');
    expect(out).toContain('negotiated version: 2025-11-25');
    expect(out).toContain('"header":"Mcp-Name"');
    expect(out).toMatch(/Done: every message above/);
  });
});

describe('README examples', () => {
  // `<package>.ts` or `<package>.<topic>.ts`: an example shown in that package's README.
  const files = readdirSync(join(root, 'src', 'readme')).filter((f) => f.endsWith('.ts'));
  const packageOf = (file: string) => file.slice(0, file.indexOf('.'));
  // Servers that other examples start on stdio: they run through those, not alone.
  const spawned = new Set(['server.stdio.ts']);
  const source = (file: string) => readFileSync(join(root, 'src', 'readme', file), 'utf8');

  it.each(files)('%s is an example of its package README, verbatim', (file) => {
    const readme = readFileSync(join(repo, 'packages', packageOf(file), 'README.md'), 'utf8');
    expect(readme).toContain(`\`\`\`ts\n${source(file).trimEnd()}\n\`\`\``);
  });
  // Examples that need a Redis get a private redis-server (skipped, saying why, without one).
  const needsRedis = new Set(['redis.ts']);
  const redisAvailable = haveBinary('redis-server', 'the @twofold/redis README example');
  let redis: TestRedis | undefined;
  beforeAll(async () => {
    if (redisAvailable) redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  const alone = files.filter((file) => !spawned.has(file) && !needsRedis.has(file));
  it.each(alone)('%s runs', (file) => {
    expect(run(join('src', 'readme', file))).not.toBe('');
  });
  it.skipIf(!redisAvailable).each([...needsRedis])('%s runs against a redis-server', (file) => {
    const out = run(join('src', 'readme', file), { REDIS_URL: redis?.url ?? '' });
    expect(out).toContain('heard on a: toolsListChanged');
  });
  it.each([...spawned])('%s is started by an example that runs', (file) => {
    const starters = files.filter((f) => !spawned.has(f) && source(f).includes(`'./${file}'`));
    expect(starters).not.toEqual([]);
  });
});
