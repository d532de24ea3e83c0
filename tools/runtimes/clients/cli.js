// Run by node, bun or deno: `<runtime> cli.js <json run>` prints the tour's report as one JSON
// line, or `{"error": ...}` and exits 1.
import { tour } from './tour.js';

const args = globalThis.Deno?.args ?? globalThis.process.argv.slice(2);
try {
  console.log(JSON.stringify(await tour(JSON.parse(args[0]))));
} catch (error) {
  console.log(JSON.stringify({ error: String(error?.stack ?? error) }));
  globalThis.Deno ? Deno.exit(1) : globalThis.process.exit(1);
}
