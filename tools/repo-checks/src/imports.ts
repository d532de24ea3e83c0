import { dirname, join } from 'node:path';
import ts from 'typescript';

/** What a source file imports. */
export interface FileImports {
  /**
   * Module specifiers of static imports, `export … from`, dynamic `import('…')`, `require('…')`
   * and `import x = require('…')`, type-only ones included.
   */
  specifiers: string[];
  /** `/// <reference types="…" />` directives. */
  typeReferences: string[];
}

/**
 * Lists the imports of a TypeScript source. TypeScript's own pre-processor does the scanning, so
 * specifiers in comments (TSDoc examples) and strings are not mistaken for imports.
 */
export function scanImports(source: string): FileImports {
  const info = ts.preProcessFile(source, true, true);
  return {
    specifiers: info.importedFiles.map((file) => file.fileName),
    typeReferences: info.typeReferenceDirectives.map((ref) => ref.fileName),
  };
}

/**
 * The file a relative specifier of `from` points at, trying the spellings TypeScript accepts
 * (`./x.js` for `./x.ts`, `./x`, `./x/index.ts`); `undefined` when none `exists`.
 */
export function resolveRelative(
  from: string,
  specifier: string,
  exists: (path: string) => boolean,
): string | undefined {
  const base = join(dirname(from), specifier);
  const candidates = [
    base.replace(/\.(c|m)?js$/, '.$1ts'),
    base,
    `${base}.ts`,
    join(base, 'index.ts'),
  ];
  // A JSON module is data: it resolves to itself and imports nothing.
  const source = (path: string) => path.endsWith('ts') || path.endsWith('.json');
  return candidates.find((path) => source(path) && exists(path));
}
