/**
 * Servers that cannot be checked still get a report: a command that does not exist, a closed
 * port, a process that never answers. And no server process outlives the run.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { doctorExitCode } from '../../src/doctor/format';
import { runDoctor } from '../../src/doctor/run';
import type { DoctorReport } from '../../src/doctor/types';
import { CHECK_IDS, checkOf, expectWellFormed, idsWith } from './support/report-checks';
import { fixtureStdio } from './support/targets';

const TIMEOUT = 30_000;

function expectUnreachable(report: DoctorReport, reason: RegExp): void {
  expectWellFormed(report);
  expect(report.era).toBe('unknown');
  expect(report.supportedVersions).toEqual([]);
  expect(checkOf(report, 'era-detection').status).toBe('fail');
  expect(checkOf(report, 'era-detection').details[0]).toMatch(reason);
  expect(idsWith(report, 'skip')).toEqual(CHECK_IDS.slice(1));
  expect(doctorExitCode(report)).toBe(1);
}

/** A loopback port nobody listens on (bound once, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('servers that cannot be checked', () => {
  it('a command that does not exist', { timeout: TIMEOUT }, async () => {
    const report = await runDoctor({ kind: 'stdio', command: 'twofold-doctor-no-such-command' });
    expectUnreachable(report, /could not connect: .*could not be started/);
  });

  it('a closed port', { timeout: TIMEOUT }, async () => {
    const url = `http://127.0.0.1:${await closedPort()}/mcp`;
    const report = await runDoctor({ kind: 'http', url });
    expectUnreachable(report, /could not connect/);
  });

  it('a process that reads everything and never answers', { timeout: TIMEOUT }, async () => {
    const report = await runDoctor(fixtureStdio('silent-stdio.mjs'), {
      timeoutMs: 1000,
      probeTimeoutMs: 200,
    });
    expectUnreachable(report, /could not connect: REQUEST_TIMEOUT/);
    // The probe met silence, which on stdio means "legacy": the handshake then timed out. The
    // process never spoke, so the probe waited as long as the client did: its start-up allowance
    // (3 steps) on top of the handshake's budget.
    expect(checkOf(report, 'era-detection').details[1]).toContain(
      'no answer within 4400 ms of a process that had not spoken yet (3000 ms allowed for its start-up)',
    );
  });
});

describe.skipIf(process.platform === 'win32')('process cleanup', () => {
  it('leaves no server process behind', { timeout: TIMEOUT }, async () => {
    // A tag in the command line finds this run's processes and no one else's.
    const tag = `--doctor-run=${randomUUID()}`;
    const report = await runDoctor(fixtureStdio('sdk-v1-stdio.mjs', [tag]));
    expect(checkOf(report, 'legacy-initialize').status).toBe('pass');
    const processes = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' });
    expect(processes.split('\n').filter((line) => line.includes(tag))).toEqual([]);
  });
});
