/**
 * `twofold doctor`: checks the target against the specification. On a terminal each check is
 * shown as it finishes; the report follows (or, with `--json`, the report alone). Exit 1 when
 * a check fails.
 */
import { timeoutOf } from '../cli/connect';
import type { ExitCode } from '../cli/exit-codes';
import { json } from '../cli/output';
import { resolveTarget } from '../cli/target';
import { type DoctorTarget, doctorExitCode, formatDoctorReport, runDoctor } from '../doctor/index';
import { type CommandContext, stringOption } from './context';

export async function run(context: CommandContext): Promise<ExitCode> {
  const resolved = await resolveTarget(context);
  const target: DoctorTarget = resolved.http
    ? { kind: 'http', url: resolved.http.url, headers: resolved.http.headers }
    : { kind: 'stdio', ...(resolved.stdio as NonNullable<typeof resolved.stdio>) };
  const live = !context.json && context.io.stderr.isTTY === true;
  const { dim } = context.paintErr;
  const report = await runDoctor(target, {
    // The doctor's own default (10 s per step) unless --timeout says otherwise.
    ...(stringOption(context, 'timeout') === undefined ? {} : { timeoutMs: timeoutOf(context) }),
    clientInfo: { name: 'twofold-doctor', version: __TWOFOLD_VERSION__ },
    ...(live
      ? { onCheck: (check) => context.io.stderr.write(dim(`  … ${check.id}: ${check.status}\n`)) }
      : {}),
  });
  context.print(context.json ? json(report) : formatDoctorReport(report, { color: context.color }));
  return doctorExitCode(report);
}
