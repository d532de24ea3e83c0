/**
 * twofold's fetch client bundled for the browser (esbuild, `platform: 'browser'`) and run by
 * headless Chromium: the page, its bundle and every peer share one loopback origin; the page
 * tours each peer (see `support/peers.ts`) and POSTs each report back to the test.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, chromiumBinary, openPage } from './support/chromium';
import { expectedReport, startPeers, TOUR_CASES, type TourReport } from './support/peers';

const chromium = chromiumBinary();
if ('missing' in chromium) console.warn(`Skipping the browser test: ${chromium.missing}`);

type Outcome = { index: number; report?: TourReport; error?: string };

/** The page's reports, with a wait for all of them. */
function reportInbox(expected: number) {
  const outcomes: Outcome[] = [];
  let wake: () => void = () => undefined;
  const all = new Promise<void>((resolve) => {
    wake = () => {
      if (outcomes.length >= expected) resolve();
    };
  });
  return { outcomes, all, add: (outcome: Outcome) => (outcomes.push(outcome), wake()) };
}

async function readBody(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text;
}

describe.skipIf('missing' in chromium)("twofold's fetch client in headless Chromium", () => {
  const inbox = reportInbox(TOUR_CASES.length);
  let bundle = '';
  let peers: Awaited<ReturnType<typeof startPeers>> | undefined;
  let browser: Browser | undefined;

  const page = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/browser.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    } else if (path === '/report' && req.method === 'POST') {
      inbox.add(JSON.parse(await readBody(req)) as Outcome);
      res.writeHead(204).end();
    } else if (path === '/') {
      const html = '<!doctype html><script type="module" src="/browser.js"></script>';
      res.writeHead(200, { 'content-type': 'text/html' }).end(html);
    } else res.writeHead(404).end();
  };

  beforeAll(async () => {
    const built = await build({
      entryPoints: [fileURLToPath(new URL('../clients/browser.js', import.meta.url))],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    });
    bundle = built.outputFiles[0]?.text ?? '';
    peers = await startPeers(page);
  });
  afterAll(async () => {
    await browser?.stop();
    await peers?.close();
  });

  it('tours every peer from a page, in both eras and through the HTTP+SSE fallback', {
    timeout: 120_000,
  }, async () => {
    const runs = TOUR_CASES.map((tourCase) => tourCase.run);
    const url = `${peers?.origin}/?runs=${encodeURIComponent(JSON.stringify(runs))}`;
    browser = openPage('path' in chromium ? chromium.path : '', url);
    const crashed = browser.exited.then((why) => {
      throw new Error(why);
    });
    await Promise.race([inbox.all, crashed]);
    const byCase = TOUR_CASES.map((tourCase, index) => ({
      name: tourCase.name,
      outcome: inbox.outcomes.find((outcome) => outcome.index === index),
    }));
    expect(byCase).toEqual(
      TOUR_CASES.map((tourCase, index) => ({
        name: tourCase.name,
        outcome: { index, report: expectedReport(tourCase) },
      })),
    );
  });
});
