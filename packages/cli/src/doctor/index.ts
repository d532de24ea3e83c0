/**
 * The engine of `twofold doctor <target>`: `runDoctor` checks a server against the MCP
 * specification; `formatDoctorReport` and `doctorExitCode` turn the report into output. The
 * CLI command layer parses arguments and prints; `--json` prints the report itself.
 */
export { doctorExitCode, type FormatOptions, formatDoctorReport, summarizeChecks } from './format';
export { listDoctorChecks, runDoctor } from './run';
export type {
  CheckResult,
  CheckStatus,
  DoctorEra,
  DoctorOptions,
  DoctorReport,
  DoctorSummary,
  DoctorTarget,
} from './types';
