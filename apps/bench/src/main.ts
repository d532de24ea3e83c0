/**
 * `pnpm bench [--quick]`: runs twofold's benchmarks beside the official MCP SDK and prints
 * Markdown tables of medians with min–max and ratios. Installs nothing at run time.
 */
import { runClientConnectBench } from './client-connect';
import { runFramerBench } from './framer';
import { runProtocolMicro } from './protocol-micro';
import { runServerBench } from './server-bench';

const quick = process.argv.includes('--quick');
console.log(`# twofold benchmarks${quick ? ' (quick)' : ''}\n`);
console.log(`node ${process.version}, ${process.platform}/${process.arch}\n`);
console.log(
  '## Wire layer: parse + validate (higher is better; ratio > 1 means faster than the official core)\n',
);
console.log(runProtocolMicro(quick));
console.log('\n## stdio framing: one message fed in 64 KiB chunks (lower ms/MiB is better)\n');
console.log(runFramerBench(quick));
console.log(
  '\n## Server: tools/call over HTTP (50 tools) and stdio, twofold beside the official SDK 2.4.0\n',
);
console.log(await runServerBench(quick));
console.log(
  '\n## Client: connect → first tools/list, era detection (`auto`) beside a pinned era and the official client 2.4.0 (lower ms is better)\n',
);
console.log(await runClientConnectBench(quick));
