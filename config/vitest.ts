import { availableParallelism } from 'node:os';
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import { packageDefines, readPackageJson } from './package-json.ts';

/** Options of {@link definePackageTest}. */
export interface PackageTestOptions {
  /** Only for a package that has no test yet; every scaffolded package has at least one. */
  passWithNoTests?: boolean;
}

/**
 * The vitest config of a twofold package, run from the package's directory. Tests run against
 * `src/`, with the same build-time constants that tsup injects into `dist/`.
 */
export function definePackageTest(options: PackageTestOptions = {}): ViteUserConfig {
  const pkg = readPackageJson(process.cwd());
  return defineConfig({
    define: packageDefines(pkg),
    test: {
      include: ['test/**/*.test.ts'],
      // Many tests start real processes and servers while every package's suite runs at once on
      // a small CI machine: the timeout only bounds a hang (nothing here asserts a duration).
      testTimeout: 30_000,
      hookTimeout: 30_000,
      // The root `test` script runs two packages' suites at once (turbo --concurrency=2), so
      // each gets half the cores: vitest's default of all cores but one, per suite, puts up to
      // twice as many process-starting workers as cores side by side (the same on two cores).
      maxWorkers: Math.max(1, Math.floor(availableParallelism() / 2)),
      passWithNoTests: options.passWithNoTests ?? false,
    },
  });
}
