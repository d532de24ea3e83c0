/**
 * The experimental API of `@twofold/cli`: `runCli` (the `twofold` command, embeddable with
 * injected streams), its exit codes, and the engines behind `twofold doctor` and
 * `twofold bridge`. Node only. Every export may change in any minor release.
 *
 * @experimental
 * @packageDocumentation
 */
export {
  type BridgeEnd,
  type BridgeInstrumentation,
  type BridgeLogEntry,
  type BridgeUpstreamOptions,
  type HttpBridge,
  type HttpBridgeOptions,
  type RunningBridge,
  type StdioBridge,
  type StdioBridgeOptions,
  startHttpBridge,
  startStdioBridge,
} from './bridge/index';
export { CliError, EXIT, type ExitCode, exitCodeFor } from './cli/exit-codes';
export { type CliIo, type OutputStream, processIo } from './cli/io';
export {
  type CheckResult,
  type CheckStatus,
  type DoctorEra,
  type DoctorOptions,
  type DoctorReport,
  type DoctorSummary,
  type DoctorTarget,
  doctorExitCode,
  type FormatOptions,
  formatDoctorReport,
  listDoctorChecks,
  runDoctor,
  summarizeChecks,
} from './doctor/index';
export { runCli } from './main';
