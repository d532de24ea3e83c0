// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:NAME}` references are the subject here
/** The pure rules behind literal-secret detection: key words, secret keys, token formats, URLs. */
import { describe, expect, it } from 'vitest';
import {
  hasEnvReference,
  inspectEntry,
  isHttpUrl,
  isHttpUrlTemplate,
  keyWords,
  looksSecretKey,
  tokenFormatIn,
} from '../../src/config/secret-rules';

describe('keyWords', () => {
  it.each([
    ['GITHUB_PERSONAL_ACCESS_TOKEN', ['github', 'personal', 'access', 'token']],
    ['x-api-key', ['x', 'api', 'key']],
    ['apiKey', ['api', 'key']],
    ['OpenAIApiKey', ['open', 'ai', 'api', 'key']],
    ['db.password', ['db', 'password']],
    ['__', []],
  ])('%s', (key, words) => {
    expect(keyWords(key)).toEqual(words);
  });
});

describe('looksSecretKey', () => {
  it.each([
    'GITHUB_TOKEN',
    'API_KEY',
    'OPENAI_API_KEY',
    'apiKey',
    'x-api-key',
    'Authorization',
    'Proxy-Authorization',
    'DB_PASSWORD',
    'client_secret',
    'Cookie',
    'AWS_SECRET_ACCESS_KEY',
    'PRIVATE_KEY',
    'LICENSE_KEY',
    'auth',
    'GITLAB_PAT',
  ])('%s names a secret', (key) => {
    expect(looksSecretKey(key)).toBe(true);
  });

  it.each([
    'TOKEN_FILE',
    'GOOGLE_APPLICATION_CREDENTIALS_PATH',
    'AUTH_MODE',
    'API_KEY_ID',
    'TOKEN_URL',
    'OAUTH_ISSUER',
    'KEY',
    'MONKEY',
    'KEYBOARD_LAYOUT',
    'LOG_LEVEL',
    'Accept',
    'PATH',
    'tokenizer',
  ])('%s does not', (key) => {
    expect(looksSecretKey(key)).toBe(false);
  });
});

describe('tokenFormatIn', () => {
  const pad = (n: number) => 'a1B2c3D4e5'.repeat(5).slice(0, n);
  it.each([
    [`ghp_${pad(36)}`, 'a GitHub token (ghp_…)'],
    [`gho_${pad(36)}`, 'a GitHub token (ghp_…)'],
    [`github_pat_${pad(40)}`, 'a GitHub token (github_pat_…)'],
    [`glpat-${pad(20)}`, 'a GitLab token (glpat-…)'],
    [`sk-${pad(30)}`, 'an API key (sk-…)'],
    [`sk-proj-${pad(30)}`, 'an API key (sk-…)'],
    [`sk_live_${pad(24)}`, 'a Stripe key (sk_/rk_…)'],
    [`xoxb-${pad(24)}`, 'a Slack token (xox…-)'],
    ['AKIAABCDEFGHIJKLMNOP', 'an AWS access key (AKIA…)'],
    [`AIza${pad(35)}`, 'a Google API key (AIza…)'],
    [`hf_${pad(30)}`, 'a Hugging Face token (hf_…)'],
    [`npm_${pad(36)}`, 'an npm token (npm_…)'],
    [`token=ghp_${pad(36)}`, 'a GitHub token (ghp_…)'],
    [`Bearer sk-${pad(30)}`, 'an API key (sk-…)'],
  ])('finds the format of %s', (value, label) => {
    expect(tokenFormatIn(value)).toBe(label);
  });

  it.each([
    'ghp_short',
    'sk-short',
    'AKIAABCDEFGHIJKLMNOPQ',
    'mask-ghp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
    'hello world',
    '',
  ])('finds no token in %j', (value) => {
    expect(tokenFormatIn(value)).toBeUndefined();
  });
});

describe('references and URLs', () => {
  it.each([
    ['${env:TOKEN}', true],
    ['Bearer ${env:T_1}', true],
    ['${env:1BAD}', false],
    ['${env:}', false],
    ['${TOKEN}', false],
    ['$env:TOKEN', false],
  ])('hasEnvReference(%j) is %s', (value, expected) => {
    expect(hasEnvReference(value)).toBe(expected);
  });

  it.each([
    ['https://x.example/mcp', true, true],
    ['http://localhost:3000', true, true],
    ['ftp://x.example', false, false],
    ['x.example/mcp', false, false],
    ['${env:URL}', false, true],
    ['https://${env:HOST}/mcp', false, true],
    // A reference in the path is still a parseable URL (the braces get percent-encoded).
    ['https://x.example/${env:PATH_PART}', true, true],
    ['ws://${env:HOST}', false, false],
  ])('%s: http URL %s, template %s', (value, url, template) => {
    expect(isHttpUrl(value)).toBe(url);
    expect(isHttpUrlTemplate(value)).toBe(template);
  });
});

describe('inspectEntry', () => {
  it('returns paths, kinds and masked values, never the bare secret', () => {
    const findings = inspectEntry({
      command: 'x',
      env: { GITHUB_TOKEN: 'plain-secret', OK: '${env:OK}', BAD: '${env:A-B}' },
      headers: { Authorization: 'Basic dXNlcjpwYXNz' },
      url: 'https://u:pw@x.example/?secret=s1',
    });
    expect(findings.map(({ path, kind, redacted }) => ({ path, kind, redacted }))).toEqual([
      { path: ['env', 'GITHUB_TOKEN'], kind: 'literal-secret', redacted: '***' },
      { path: ['env', 'BAD'], kind: 'malformed-reference', redacted: '${env:A-B}' },
      { path: ['headers', 'Authorization'], kind: 'literal-secret', redacted: 'Basic ***' },
      { path: ['url'], kind: 'literal-secret', redacted: 'https://u:***@x.example/?secret=***' },
    ]);
    for (const finding of findings) {
      expect(`${finding.what} ${finding.hint}`).not.toMatch(/plain-secret|dXNlcjpwYXNz|pw@|s1/);
    }
  });

  it('finds nothing in what is not an object', () => {
    expect(inspectEntry(null)).toEqual([]);
    expect(inspectEntry(['x'])).toEqual([]);
    expect(inspectEntry({ env: 'x', headers: [1], args: 'y' })).toEqual([]);
  });
});
