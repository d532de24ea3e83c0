/** The pure parts of the doctor: summary, exit code, human format, JSON shape, redaction. */
import { describe, expect, it } from 'vitest';
import { describeTarget, redactArgs, redactUrl } from '../../src/cli/redact';
import { Findings } from '../../src/doctor/checks/define';
import { doctorExitCode, formatDoctorReport, summarizeChecks } from '../../src/doctor/format';
import { listDoctorChecks } from '../../src/doctor/run';
import { specUrl } from '../../src/doctor/spec-refs';
import type { CheckResult, DoctorReport } from '../../src/doctor/types';
import { CHECK_IDS } from './support/report-checks';

function check(id: string, status: CheckResult['status'], details: string[]): CheckResult {
  const spec = '2026-07-28/server/discover';
  return { id, title: `Title of ${id}`, status, spec, specUrl: specUrl(spec), details };
}

function report(checks: CheckResult[]): DoctorReport {
  return {
    target: 'http: http://127.0.0.1:1234/mcp',
    era: 'modern',
    protocolVersion: '2026-07-28',
    supportedVersions: ['2026-07-28', '2025-11-25'],
    serverInfo: { name: 'example', version: '1.0.0' },
    checks,
    summary: summarizeChecks(checks),
  };
}

describe('summary and exit code', () => {
  it('counts checks by status', () => {
    const checks = [
      check('a', 'pass', ['x']),
      check('b', 'warn', ['x']),
      check('c', 'skip', ['x']),
    ];
    expect(summarizeChecks(checks)).toEqual({ pass: 1, warn: 1, fail: 0, skip: 1 });
    expect(summarizeChecks([])).toEqual({ pass: 0, warn: 0, fail: 0, skip: 0 });
  });

  it('exits 1 only when a check failed', () => {
    expect(doctorExitCode(report([check('a', 'pass', ['x']), check('b', 'warn', ['x'])]))).toBe(0);
    expect(doctorExitCode(report([check('a', 'skip', ['x'])]))).toBe(0);
    expect(doctorExitCode(report([check('a', 'pass', ['x']), check('b', 'fail', ['x'])]))).toBe(1);
  });
});

describe('formatDoctorReport', () => {
  const sample = report([
    check('era-detection', 'pass', ['concluded modern']),
    check('origin-rejected', 'fail', ['→ HTTP 200', 'second finding']),
    check('legacy-initialize', 'skip', ['modern-only server']),
  ]);

  it('prints aligned lines, indented details, spec pages and a summary', () => {
    expect(formatDoctorReport(sample, { color: false })).toBe(
      [
        'twofold doctor http: http://127.0.0.1:1234/mcp',
        'era modern · protocol 2026-07-28 · server example 1.0.0 · supports 2026-07-28, 2025-11-25',
        '',
        '  PASS  era-detection      Title of era-detection',
        '        concluded modern',
        '        spec: https://modelcontextprotocol.io/specification/2026-07-28/server/discover',
        '  FAIL  origin-rejected    Title of origin-rejected',
        '        → HTTP 200',
        '        second finding',
        '        spec: https://modelcontextprotocol.io/specification/2026-07-28/server/discover',
        '  SKIP  legacy-initialize  Title of legacy-initialize',
        '        modern-only server',
        '        spec: https://modelcontextprotocol.io/specification/2026-07-28/server/discover',
        '',
        '3 checks: 1 pass, 0 warn, 1 fail, 1 skip',
        '',
      ].join('\n'),
    );
  });

  it('colours the statuses only when asked', () => {
    expect(formatDoctorReport(sample, { color: false })).not.toContain('\u001b[');
    const coloured = formatDoctorReport(sample, { color: true });
    expect(coloured).toContain('\u001b[32mPASS\u001b[0m');
    expect(coloured).toContain('\u001b[31mFAIL\u001b[0m');
    expect(coloured).toContain('\u001b[90mSKIP\u001b[0m');
    expect(coloured).toContain('\u001b[31m1 fail\u001b[0m');
  });

  it('keeps server text from moving the cursor or breaking lines', () => {
    const hostile = report([check('tool-names', 'warn', ['name "a\u001b[2Jb\nc"'])]);
    hostile.serverInfo = { name: 'evil\u001b]0;title\u0007', version: '1\r\n2' };
    const text = formatDoctorReport(hostile, { color: false });
    expect(text).not.toContain('\u001b');
    expect(text).toContain('        name "a [2Jb c"');
    expect(text.split('\n')[1]).toContain('server evil ]0;title  1 2');
  });
});

describe('the --json shape', () => {
  it('has the documented fields and nothing that does not survive JSON', () => {
    const sample = report([check('discover-shape', 'pass', ['ok'])]);
    const json = JSON.parse(JSON.stringify(sample)) as Record<string, unknown>;
    expect(Object.keys(json).sort()).toEqual(
      [
        'checks',
        'era',
        'protocolVersion',
        'serverInfo',
        'summary',
        'supportedVersions',
        'target',
      ].sort(),
    );
    expect(Object.keys((json.checks as object[])[0] ?? {}).sort()).toEqual(
      ['details', 'id', 'spec', 'specUrl', 'status', 'title'].sort(),
    );
    expect(json).toEqual(sample);
  });
});

describe('target redaction', () => {
  it('names headers and environment variables without their values', () => {
    expect(
      describeTarget({
        kind: 'http',
        url: 'https://user:pass@example.test/mcp?token=abc&x=1',
        headers: { Authorization: 'Bearer secret-token' },
      }),
    ).toBe('http: https://***@example.test/mcp?token=***&x=*** (headers: Authorization)');
    const stdio = describeTarget({
      kind: 'stdio',
      command: 'node',
      args: ['server.js', '--api-key=sk-123', '--token', 'abc', '--port', '8080', 'a b'],
      env: { API_KEY: 'sk-123' },
    });
    expect(stdio).toBe(
      'stdio: node server.js --api-key=*** --token *** --port 8080 "a b" (env: API_KEY=***)',
    );
    expect(stdio).not.toContain('sk-123');
  });

  it('leaves ordinary arguments and URLs alone', () => {
    expect(redactArgs(['--stdio', 'main.ts'])).toEqual(['--stdio', 'main.ts']);
    expect(redactUrl('http://127.0.0.1:8080/mcp')).toBe('http://127.0.0.1:8080/mcp');
    expect(redactUrl('not a url')).toBe('(invalid URL)');
  });
});

describe('Findings', () => {
  it('takes the worst finding as the status', () => {
    expect(new Findings().note('a').outcome().status).toBe('pass');
    expect(new Findings().warn('a').note('b').outcome().status).toBe('warn');
    const outcome = new Findings().fail('a').warn('b').expect(true, 'c').outcome();
    expect(outcome).toEqual({ status: 'fail', details: ['a', 'b', 'c'] });
    expect(new Findings().expect(false, 'x', 'warn').outcome('2025-11-25/basic/index')).toEqual({
      status: 'warn',
      details: ['x'],
      spec: '2025-11-25/basic/index',
    });
  });
});

describe('listDoctorChecks', () => {
  it('lists the pinned check ids in run order, each with a spec page', () => {
    const checks = listDoctorChecks();
    expect(checks.map((c) => c.id)).toEqual(CHECK_IDS);
    for (const c of checks) {
      expect(c.id).toMatch(/^[a-z]+(-[a-z0-9]+)*$/);
      expect(c.specUrl).toBe(`https://modelcontextprotocol.io/specification/${c.spec}`);
    }
  });
});
