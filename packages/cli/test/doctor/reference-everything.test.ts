/**
 * The doctor against `@modelcontextprotocol/server-everything` (2026.8.31) on stdio, a legacy
 * server built on the official SDK: a report with real findings, not a crash.
 */
import { expect, it } from 'vitest';
import { runDoctor } from '../../src/doctor/run';
import { checkOf, detailsOf, expectWellFormed, idsWith } from './support/report-checks';
import { referenceEverything } from './support/targets';

const MODERN_ONLY = [
  'discover-shape',
  'result-type',
  'cache-hints',
  'tool-header-annotations',
  'unsupported-version',
];

it('reports server-everything as a legacy server, with its findings', {
  timeout: 30_000,
}, async () => {
  const report = await runDoctor(referenceEverything());
  expectWellFormed(report);
  expect(report.era).toBe('legacy');
  expect(report.protocolVersion).toBe('2025-11-25');
  expect(report.serverInfo?.name).toBe('mcp-servers/everything');

  // The probe is answered -32601 before initialize: a clean legacy signal on stdio.
  expect(checkOf(report, 'era-detection').status).toBe('pass');
  expect(detailsOf(report, 'era-detection')).toContain('error -32601');

  // Modern-only checks skip, saying why; so do the HTTP-only ones on stdio.
  expect(idsWith(report, 'skip')).toEqual([
    ...MODERN_ONLY.slice(0, 4),
    'header-mismatch',
    'origin-rejected',
    'unsupported-version',
    'skills-extension',
    'tasks-extension',
  ]);
  for (const id of MODERN_ONLY) {
    expect(checkOf(report, id).details).toEqual([
      'applies to modern (2026-07-28) servers; this server speaks legacy 2025-11-25',
    ]);
  }

  // Real finding: the SDK ignores a cursor it never issued and answers the first page, where
  // the spec asks for -32602 (a SHOULD, hence a warning).
  expect(checkOf(report, 'pagination').status).toBe('warn');
  expect(detailsOf(report, 'pagination')).toMatch(
    /tools\/list with cursor "twofold-doctor-invalid-cursor" was answered with a result/,
  );

  // It echoes every legacy revision, 2025-03-26 included, and answers an unknown one with its newest.
  expect(checkOf(report, 'legacy-initialize').status).toBe('pass');
  expect(report.supportedVersions).toEqual([
    '2025-11-25',
    '2025-06-18',
    '2025-03-26',
    '2024-11-05',
  ]);
  expect(detailsOf(report, 'legacy-initialize')).toContain(
    '2999-12-31 (a future version) → 2025-11-25, its newest',
  );
  expect(checkOf(report, 'notifications-unanswered').status).toBe('pass');
  expect(checkOf(report, 'list-order').status).toBe('pass');
  expect(checkOf(report, 'tool-names').status).toBe('pass');
});
