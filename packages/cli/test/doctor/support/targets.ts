/**
 * The servers the doctor tests run against, all real: twofold's everything server (in-process
 * HTTP, and stdio run from source with tsx), `@modelcontextprotocol/server-everything` on stdio,
 * and fixtures built with the official SDKs (2.4.0 dual-era, 1.32.2 legacy).
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServerHttpHandler } from '@twofold/server/http';
import { serve } from '@twofold/transports/node';
import { createEverythingServer } from '../../../../../apps/everything-server/src/server';
import {
  referenceEverythingLaunch,
  twofoldEverythingLaunch,
} from '../../../../../config/test-support/servers.ts';
import type { DoctorTarget } from '../../../src/doctor/types';

const PACKAGE_DIR = fileURLToPath(new URL('../../..', import.meta.url));
const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** A loopback HTTP endpoint and the way to stop it. */
export interface Endpoint {
  target: DoctorTarget & { kind: 'http' };
  close(): Promise<void>;
}

/** twofold's everything server on an in-process loopback HTTP endpoint. */
export async function twofoldEverythingHttp(): Promise<Endpoint> {
  const endpoint = await serve(createServerHttpHandler(createEverythingServer()));
  return { target: { kind: 'http', url: endpoint.url.href }, close: () => endpoint.close() };
}

/** twofold's everything server on stdio, run from source with tsx. */
export function twofoldEverythingStdio(): DoctorTarget {
  return { kind: 'stdio', ...twofoldEverythingLaunch(import.meta.url), cwd: PACKAGE_DIR };
}

/** The installed `@modelcontextprotocol/server-everything` on stdio (no npx). */
export function referenceEverything(): DoctorTarget {
  return { kind: 'stdio', ...referenceEverythingLaunch(import.meta.url), cwd: PACKAGE_DIR };
}

/** A fixture of this suite (`test/doctor/fixtures/*.mjs`) on stdio. */
export function fixtureStdio(file: string, args: string[] = []): DoctorTarget {
  return {
    kind: 'stdio',
    command: process.execPath,
    args: [join(FIXTURES, file), ...args],
    cwd: PACKAGE_DIR,
  };
}
