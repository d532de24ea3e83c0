/**
 * A script bundled for workerd (Cloudflare Workers) by esbuild and run by miniflare on
 * loopback, with no fetch of Cloudflare's `request.cf` data.
 */
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';

/** A running Worker. */
export interface RunningWorker {
  url: URL;
  dispose(): Promise<void>;
}

/** Bundles `entry` (an absolute path) the way Wrangler would and starts it. */
export async function startWorker(entry: string): Promise<RunningWorker> {
  const bundled = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker'],
    write: false,
    logLevel: 'error',
  });
  const miniflare = new Miniflare({
    modules: true,
    script: bundled.outputFiles[0]?.text ?? '',
    compatibilityDate: '2025-09-01',
    cf: false,
    host: '127.0.0.1',
    port: 0,
  });
  return { url: await miniflare.ready, dispose: () => miniflare.dispose() };
}
