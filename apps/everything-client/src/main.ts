/**
 * The everything client: what the MCP conformance suite runs for each client scenario, as
 * `<command> <server-url>` with the scenario's name in MCP_CONFORMANCE_SCENARIO and its data,
 * when it has any, as JSON in MCP_CONFORMANCE_CONTEXT. Without a scenario it connects and
 * prints what it found. Exits 0 when the scenario ran to the end, 1 when it failed, 64 on
 * wrong usage (the usage on stderr; `--help` prints it on stdout and exits 0). Logs go to
 * stderr.
 *
 * Usage: everything-client [--scenario NAME] [--era auto|modern|legacy] <server-url>
 */
import { parseArgs } from 'node:util';
import type { EraChoice } from '@twofold/client/experimental';
import type { ScenarioRun } from './run';
import { explore, SCENARIOS } from './scenarios/index';

const USAGE = `usage: everything-client [--scenario NAME] [--era auto|modern|legacy] <server-url>
scenarios: ${Object.keys(SCENARIOS).join(', ')}\n`;
const HELP = `${USAGE}
  --scenario NAME   the scenario to run (default: $MCP_CONFORMANCE_SCENARIO); without one,
                    connect and print what the server offers
  --era ERA         auto (default), modern or legacy
  -h, --help        this text
The scenario's data, if any, comes as a JSON object in $MCP_CONFORMANCE_CONTEXT.
`;
const ERAS: readonly string[] = ['auto', 'modern', 'legacy'];
/** Wrong usage (EX_USAGE of sysexits.h). */
const EXIT_USAGE = 64;

function usage(problem: string): never {
  process.stderr.write(`everything-client: ${problem}\n${USAGE}`);
  process.exit(EXIT_USAGE);
}

function parse() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        scenario: { type: 'string', default: process.env.MCP_CONFORMANCE_SCENARIO },
        era: { type: 'string', default: 'auto' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    // An unknown flag or a flag without its value.
    return usage((error as Error).message);
  }
}

const { values, positionals } = parse();
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}

// The suite appends the server URL after the command's own arguments.
const url = positionals.at(-1);
if (url === undefined || !URL.canParse(url)) usage('the last argument must be the server URL');
if (!ERAS.includes(values.era)) usage(`unknown era ${values.era}`);
const name = values.scenario;
const scenario = name === undefined ? explore : SCENARIOS[name];
if (!scenario) usage(`unknown scenario ${name}`);

let context: Record<string, unknown> = {};
const rawContext = process.env.MCP_CONFORMANCE_CONTEXT;
if (rawContext) {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rawContext);
  } catch {
    usage('MCP_CONFORMANCE_CONTEXT is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null)
    usage('MCP_CONFORMANCE_CONTEXT is not an object');
  context = parsed as Record<string, unknown>;
}

const label = name ?? 'explore';
const run: ScenarioRun = {
  url,
  context,
  era: values.era as EraChoice,
  log: (line) => process.stderr.write(`[${label}] ${line}\n`),
};

const EXIT_GRACE_MS = 5_000;

try {
  await scenario(run);
  run.log('done');
} catch (error) {
  run.log(`failed: ${describe(error)}`);
  process.exitCode = 1;
}
// The client closed everything it opened; a process still alive after this is a leak worth
// seeing, but not worth the suite's whole timeout.
setTimeout(() => {
  run.log(`still running ${EXIT_GRACE_MS} ms after the scenario ended: something was left open`);
  process.exit(process.exitCode ?? 1);
}, EXIT_GRACE_MS).unref();

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const details = (error as { details?: unknown }).details;
  const parts = [error.stack ?? error.message];
  if (details !== undefined) parts.push(`details: ${JSON.stringify(details)}`);
  if (error.cause !== undefined) parts.push(`cause: ${describe(error.cause)}`);
  return parts.join('\n  ');
}
