/**
 * `twofold doctor`: checks the target against the specification. On a terminal each check is
 * shown as it finishes; the report follows (or, with `--json`, the report alone). Exit 1 when
 * a check fails. A server that asks for OAuth is checked with the stored token (or one got as
 * any command would).
 */
import { bearerHeader } from '../auth/authorize';
import { type CommandContext, stringOption } from '../cli/command';
import type { ExitCode } from '../cli/exit-codes';
import { json } from '../cli/output';
import { resolveTarget } from '../cli/target';
import { optionalMilliseconds, timeoutOf } from '../cli/timeout';
import { type DoctorTarget, doctorExitCode, formatDoctorReport, runDoctor } from '../doctor/index';

/** The doctor's own default bound of each step (runDoctor's), also of getting a token. */
const DOCTOR_STEP_MS = 10_000;

export async function run(context: CommandContext): Promise<ExitCode> {
  const resolved = await resolveTarget(context);
  // The doctor's own default (10 s per step) unless --timeout says otherwise.
  const timeoutMs = stringOption(context, 'timeout') === undefined ? undefined : timeoutOf(context);
  const probeTimeoutMs = optionalMilliseconds(context, 'probe-timeout');
  const startupTimeoutMs = optionalMilliseconds(context, 'startup-timeout');
  // A protected server is checked with a token (the doctor's requests are its own, so it gets
  // one first), which the report never shows.
  const target: DoctorTarget = resolved.http
    ? {
        kind: 'http',
        url: resolved.http.url,
        headers: {
          ...resolved.http.headers,
          ...(await bearerHeader(context, resolved, timeoutMs ?? DOCTOR_STEP_MS)),
        },
      }
    : { kind: 'stdio', ...(resolved.stdio as NonNullable<typeof resolved.stdio>) };
  const live = !context.json && context.io.stderr.isTTY === true;
  const { dim } = context.paintErr;
  const report = await runDoctor(target, {
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(probeTimeoutMs === undefined ? {} : { probeTimeoutMs }),
    ...(startupTimeoutMs === undefined ? {} : { startupTimeoutMs }),
    clientInfo: { name: 'twofold-doctor', version: __TWOFOLD_VERSION__ },
    ...(live
      ? { onCheck: (check) => context.io.stderr.write(dim(`  … ${check.id}: ${check.status}\n`)) }
      : {}),
  });
  context.print(context.json ? json(report) : formatDoctorReport(report, { color: context.color }));
  return doctorExitCode(report);
}
