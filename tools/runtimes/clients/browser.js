// Bundled for the browser: runs the tour for each run the page's `runs` parameter lists (JSON),
// one after another, and POSTs each report (or error) to `/report` on the page's own origin.
import { tour } from './tour.js';

const runs = JSON.parse(new URL(location.href).searchParams.get('runs') ?? '[]');
for (const [index, run] of runs.entries()) {
  let outcome;
  try {
    const sseUrl =
      run.sseUrl === undefined ? {} : { sseUrl: new URL(run.sseUrl, location.href).href };
    const absolute = { ...run, url: new URL(run.url, location.href).href, ...sseUrl };
    outcome = { index, report: await tour(absolute) };
  } catch (error) {
    outcome = { index, error: String(error?.stack ?? error) };
  }
  await fetch('/report', { method: 'POST', body: JSON.stringify(outcome) });
}
