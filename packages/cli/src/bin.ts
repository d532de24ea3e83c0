#!/usr/bin/env node
/**
 * The `twofold` executable: runs the CLI in this process, waits for stdout and stderr to
 * drain, then exits with the CLI's code (idle keep-alive sockets must not hold the process).
 */
import { processIo } from './cli/io';
import { runCli } from './main';

const drained = (stream: NodeJS.WriteStream) =>
  new Promise<void>((resolve) => {
    if (stream.writableLength === 0) resolve();
    else stream.write('', () => resolve());
  });

void runCli(process.argv.slice(2), processIo()).then(async (code) => {
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  process.exit(code);
});
