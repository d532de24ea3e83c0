/**
 * Runs the everything server: `--stdio` on this process's streams, or `--http [--port N]
 * [--host H]` on a loopback HTTP endpoint whose URL is printed on stderr (stdout stays free
 * for the stdio protocol).
 */
import { parseArgs } from 'node:util';
import { createServerHttpHandler } from '@twofold/server/experimental';
import { serveStdio } from '@twofold/server/stdio';
import { serve } from '@twofold/transports/node';
import { createEverythingServer } from './server';

const USAGE = 'usage: everything-server --stdio | --http [--port N] [--host 127.0.0.1]\n';

const { values } = parseArgs({
  options: {
    stdio: { type: 'boolean', default: false },
    http: { type: 'boolean', default: false },
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});

const port = Number(values.port);
if (values.stdio === values.http || !Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write(USAGE);
  process.exit(2);
}

const server = createEverythingServer();
if (values.stdio) {
  await serveStdio(server);
  process.stderr.write('everything-server: serving on stdio\n');
} else {
  const endpoint = await serve(createServerHttpHandler(server), { host: values.host, port });
  process.stderr.write(`everything-server: listening on ${endpoint.url.href}\n`);
  const stop = () => {
    void endpoint.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
