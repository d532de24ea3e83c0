/**
 * What a check is (an id, a title, a spec page, a function) and the small builder checks use
 * to collect findings: the worst finding decides the status.
 */
import type { DoctorContext } from '../context';
import type { SpecRef } from '../spec-refs';
import type { CheckStatus } from '../types';

/** What a check's function returns. */
export interface CheckOutcome {
  status: CheckStatus;
  details: string[];
  /** A page other than the check's default (the legacy revision's, say). */
  spec?: SpecRef;
}

/** One check of the doctor. */
export interface CheckDefinition {
  /** Stable kebab-case id: part of the `--json` contract (see types.ts). */
  id: string;
  title: string;
  spec: SpecRef;
  run(context: DoctorContext): Promise<CheckOutcome>;
}

const RANK: Record<CheckStatus, number> = { skip: 0, pass: 1, warn: 2, fail: 3 };

/** Collects a check's findings; the status is the worst one recorded (pass when none). */
export class Findings {
  private status: CheckStatus = 'pass';
  private readonly details: string[] = [];

  /** A neutral observation. */
  note(detail: string): this {
    this.details.push(detail);
    return this;
  }

  /** A SHOULD-level deviation. */
  warn(detail: string): this {
    return this.raise('warn', detail);
  }

  /** A MUST-level deviation, or a step the server made impossible. */
  fail(detail: string): this {
    return this.raise('fail', detail);
  }

  /** Records `detail` as a failure when `ok` is false, as a note otherwise. */
  expect(ok: boolean, detail: string, level: 'warn' | 'fail' = 'fail'): this {
    return ok ? this.note(detail) : this.raise(level, detail);
  }

  get worst(): CheckStatus {
    return this.status;
  }

  outcome(spec?: SpecRef): CheckOutcome {
    return spec === undefined
      ? { status: this.status, details: [...this.details] }
      : { status: this.status, details: [...this.details], spec };
  }

  private raise(level: 'warn' | 'fail', detail: string): this {
    if (RANK[level] > RANK[this.status]) this.status = level;
    this.details.push(detail);
    return this;
  }
}

/** A check that does not apply, with the reason. */
export function skip(reason: string): CheckOutcome {
  return { status: 'skip', details: [reason] };
}

/** The reason modern-only checks give on a server that is not modern (or not reached). */
export function notModern(context: DoctorContext): CheckOutcome | undefined {
  if (context.era === 'modern') return undefined;
  if (context.era === 'unknown') return notConnected(context);
  return skip(
    `applies to modern (2026-07-28) servers; this server speaks legacy ${context.client?.protocolVersion ?? ''}`.trimEnd(),
  );
}

/** The reason every check but era detection gives when the doctor could not connect. */
export function notConnected(_context: DoctorContext): CheckOutcome {
  return skip('not checked: the doctor could not connect (see era-detection)');
}

/** The reason HTTP-only checks give on stdio. */
export function notHttp(context: DoctorContext): CheckOutcome | undefined {
  return context.target.kind === 'http'
    ? undefined
    : skip('applies to Streamable HTTP servers; this one runs on stdio');
}
