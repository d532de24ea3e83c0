/**
 * The doctor against servers built with SDK 1.32.2 (`@modelcontextprotocol/sdk`), a legacy-only
 * implementation, on stdio, Streamable HTTP and the 2024-11-05 HTTP+SSE transport.
 */
import { describe, expect, it } from 'vitest';
import { runDoctor } from '../../src/doctor/run';
import { checkOf, detailsOf, expectWellFormed, idsWith } from './support/report-checks';
import { sdkV1Http, sdkV1Sse } from './support/sdk-http';
import { fixtureStdio } from './support/targets';

const TIMEOUT = 30_000;

describe('SDK 1.32.2', () => {
  it('on stdio: a legacy server, every legacy version echoed', { timeout: TIMEOUT }, async () => {
    const report = await runDoctor(fixtureStdio('sdk-v1-stdio.mjs'));
    expectWellFormed(report);
    expect(report.era).toBe('legacy');
    expect(report.serverInfo?.name).toBe('sdk-v1-doctor-fixture');
    expect(detailsOf(report, 'era-detection')).toContain('error -32601');
    expect(report.supportedVersions).toEqual([
      '2025-11-25',
      '2025-06-18',
      '2025-03-26',
      '2024-11-05',
    ]);
    expect(checkOf(report, 'unsupported-version').details[0]).toMatch(/^applies to modern/);
    expect(idsWith(report, 'fail')).toEqual([]);
  });

  it('on Streamable HTTP: legacy, and a foreign Origin is accepted', {
    timeout: TIMEOUT,
  }, async () => {
    const endpoint = await sdkV1Http();
    try {
      const report = await runDoctor(endpoint.target);
      expectWellFormed(report);
      expect(report.era).toBe('legacy');
      // The probe gets 400 with an SDK-specific error: a legacy signal over HTTP.
      expect(detailsOf(report, 'era-detection')).toMatch(/HTTP 400, error -32000/);
      expect(checkOf(report, 'header-mismatch').details[0]).toMatch(/^applies to modern/);
      expect(checkOf(report, 'origin-rejected').status).toBe('fail');
      expect(detailsOf(report, 'origin-rejected')).toContain('initialize with Origin');
      expect(detailsOf(report, 'notifications-unanswered')).toContain(
        'legacy notifications/initialized POST → HTTP 202 with no body',
      );
      expect(checkOf(report, 'legacy-initialize').status).toBe('pass');
    } finally {
      await endpoint.close();
    }
  });

  it('on HTTP+SSE (2024-11-05): the checks that need raw sessions skip', {
    timeout: TIMEOUT,
  }, async () => {
    const endpoint = await sdkV1Sse();
    try {
      const report = await runDoctor(endpoint.target);
      expectWellFormed(report);
      expect(report.era).toBe('legacy');
      expect(detailsOf(report, 'era-detection')).toContain('transport http+sse');
      for (const id of ['origin-rejected', 'notifications-unanswered', 'legacy-initialize']) {
        expect(checkOf(report, id)).toMatchObject({
          status: 'skip',
          details: ['not probed on the 2024-11-05 HTTP+SSE transport'],
        });
      }
      // Lists still go through McpClient on that transport.
      expect(checkOf(report, 'list-order').status).toBe('pass');
    } finally {
      await endpoint.close();
    }
  });
});
