/**
 * Finds the Bun and Deno executables that the `bun` and `deno` npm packages bring. pnpm does
 * not run their install scripts, so each is taken from its platform package (an optional
 * dependency) directly; a platform without one has no executable.
 */
import { accessSync, constants } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** An executable, or why there is none. */
export type Binary = { path: string } | { missing: string };

function firstExecutable(wrapper: string, candidates: string[]): Binary {
  let from: NodeJS.Require;
  try {
    from = createRequire(require.resolve(`${wrapper}/package.json`));
  } catch {
    return { missing: `the ${wrapper} npm package is not installed` };
  }
  for (const candidate of candidates) {
    try {
      const path = from.resolve(candidate);
      accessSync(path, constants.X_OK);
      return { path };
    } catch {
      // Not this platform's package, or not installed: try the next.
    }
  }
  return {
    missing: `no ${wrapper} executable for ${process.platform}-${process.arch} (${candidates.join(', ')})`,
  };
}

const arch = process.arch === 'arm64' ? 'aarch64' : process.arch;

/** Bun: `@oven/bun-<platform>-<arch>[-musl]`. */
export function bunBinary(): Binary {
  const base = `@oven/bun-${process.platform}-${arch}`;
  return firstExecutable('bun', [`${base}/bin/bun`, `${base}-musl/bin/bun`]);
}

/** Deno: `@deno/<platform>-<arch>[-glibc]` (Deno publishes no musl build). */
export function denoBinary(): Binary {
  const base = `@deno/${process.platform}-${process.arch}`;
  return firstExecutable('deno', [`${base}-glibc/deno`, `${base}/deno`]);
}
