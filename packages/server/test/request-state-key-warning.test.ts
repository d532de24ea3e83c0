/** An HTTP endpoint with a random request-state key says so at startup, once per process. */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createServerHttpHandler,
  RANDOM_REQUEST_STATE_KEY_WARNING,
} from '../src/serve/http-handler';
import { McpServer } from '../src/server';

const warnings: Error[] = [];
const collect = (warning: Error) => warnings.push(warning);
process.on('warning', collect);
afterEach(() => {
  warnings.splice(0);
});

/** Resolves after Node has emitted what was emitted so far ('warning' comes on a later tick). */
const emitted = () => new Promise((resolve) => setImmediate(resolve));
const ours = () =>
  warnings.filter(
    (w) => (w as Error & { code?: string }).code === RANDOM_REQUEST_STATE_KEY_WARNING,
  );

describe('the random request-state key warning', () => {
  it('is not given when the key comes from configuration, nor for a legacy-only endpoint', async () => {
    const keyed = new McpServer({
      name: 'keyed',
      version: '1',
      requestState: { key: 'k'.repeat(32) },
    });
    const legacyOnly = new McpServer({ name: 'old', version: '1', versions: { modern: [] } });
    await createServerHttpHandler(keyed).close();
    await createServerHttpHandler(legacyOnly).close();
    await emitted();
    expect(ours()).toEqual([]);
  });

  it('is given once for endpoints whose key is random', async () => {
    for (const name of ['first', 'second']) {
      await createServerHttpHandler(new McpServer({ name, version: '1' })).close();
    }
    await emitted();
    expect(ours()).toHaveLength(1);
    expect(ours()[0]?.name).toBe('TwofoldWarning');
    expect(ours()[0]?.message).toMatch(/requestState\.key is not set/);
  });
});
