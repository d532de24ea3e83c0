import { processIo, runCli } from '@twofold/cli/experimental';

// `twofold demo` as a function call: the same output as the command, and its exit code.
const code = await runCli(['demo'], processIo());
console.log(`twofold demo exited with ${code}`);
