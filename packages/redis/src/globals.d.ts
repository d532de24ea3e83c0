/** The package's version, injected at build time by tsup and at test time by vitest. */
declare const __TWOFOLD_VERSION__: string;
