/**
 * The one redaction rule: URLs keep scheme, host, port, path and query names; command lines
 * hide secret option values in both forms; and, over every combination of form and awkward
 * value, a secret never appears in what is shown.
 */
import { describe, expect, it } from 'vitest';
import { describeCommandLine, describeTarget, redactUrl, redactUrlsIn } from '../../src/cli/redact';

describe('redactUrl', () => {
  it.each([
    ['http://user:pw@host/mcp?api_key=k1', 'http://***@host/mcp?api_key=***'],
    ['https://user@host:8443/a/b?x=1&y=2#frag', 'https://***@host:8443/a/b?x=***&y=***'],
    ['http://127.0.0.1:8080/mcp', 'http://127.0.0.1:8080/mcp'],
    ['http://host/mcp?sk-bare-token', 'http://host/mcp?***'],
    ['not a url', '(invalid URL)'],
  ])('%s → %s', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });

  it('redacts every URL inside free text', () => {
    expect(redactUrlsIn('fetch failed: http://a:b@h/p?t=s (bad port)')).toBe(
      'fetch failed: http://***@h/p?t=*** (bad port)',
    );
    expect(redactUrlsIn('Era detection for http://h/p?k=v: HTTP 403.')).toBe(
      'Era detection for http://h/p?k=***: HTTP 403.',
    );
  });
});

describe('command lines', () => {
  it('hides secret-named option values in both forms, and URLs', () => {
    expect(
      describeCommandLine('node', [
        'server.js',
        '--api-key=k1',
        '--token',
        't1',
        '--key',
        'k2',
        'GITHUB_TOKEN=g1',
        '--port',
        '8080',
        '--upstream=https://u:p@h/x?q=v',
        'a b',
      ]),
    ).toBe(
      'node server.js --api-key=*** --token *** --key *** GITHUB_TOKEN=*** --port 8080 --upstream=https://***@h/x?q=*** "a b"',
    );
  });

  it('leaves descriptive options alone', () => {
    expect(describeCommandLine('node', ['--token-file', 'path.txt', '--stdio', 'main.ts'])).toBe(
      'node --token-file path.txt --stdio main.ts',
    );
  });

  it('names environment variables and headers without their values', () => {
    expect(describeTarget({ kind: 'stdio', command: 'srv', env: { PLAIN: 'p1' } })).toBe(
      'stdio: srv (env: PLAIN=***)',
    );
    expect(describeTarget({ kind: 'http', url: 'http://h/', headers: { 'X-Any': 'h1' } })).toBe(
      'http: http://h/ (headers: X-Any)',
    );
  });
});

describe('a secret never appears in what is shown', () => {
  const secrets = ['s3cr3t-value', 'p@ss:w/rd?&=#', 'ghp_abcdefghijklmnopqrstuvwxyz0123', 'a b c'];
  const forms: [string, (secret: string) => string][] = [
    ['--name=value', (s) => describeCommandLine('cmd', ['--api-key=' + s])],
    ['--name value', (s) => describeCommandLine('cmd', ['--password', s])],
    ['-n value', (s) => describeCommandLine('cmd', ['-token', s, 'tail'])],
    ['NAME=value', (s) => describeCommandLine('env', [`SERVICE_SECRET=${s}`, 'cmd'])],
    ['URL userinfo', (s) => redactUrl(`https://${encodeURIComponent(s)}@h/p`)],
    ['URL password', (s) => redactUrl(`https://u:${encodeURIComponent(s)}@h/p`)],
    ['URL query', (s) => redactUrl(`https://h/p?x=${encodeURIComponent(s)}`)],
    ['URL argument', (s) => describeCommandLine('cmd', [`https://h/p?x=${encodeURIComponent(s)}`])],
    ['env value', (s) => describeTarget({ kind: 'stdio', command: 'c', env: { ANY: s } })],
    ['header value', (s) => describeTarget({ kind: 'http', url: 'http://h/', headers: { A: s } })],
  ];
  for (const [form, show] of forms) {
    it(form, () => {
      for (const secret of secrets) {
        const shown = show(secret);
        expect(shown).not.toContain(secret);
        expect(shown).not.toContain(encodeURIComponent(secret));
        expect(shown).not.toContain(JSON.stringify(secret).slice(1, -1));
      }
    });
  }
});
