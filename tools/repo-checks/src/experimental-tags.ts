/**
 * Finds the exports of a built `.d.ts` bundle whose declaration lacks an `@experimental` TSDoc
 * tag. Works on tsup's bundled declarations: one `export { … }` list at the end, and each
 * declaration (`declare const`, `declare function`, `interface`, `type`, `declare class`) with
 * its TSDoc right above it.
 */
export function untaggedExports(dts: string): string[] {
  const list = [...dts.matchAll(/^export \{([^}]*)\};?$/gm)].flatMap((m) =>
    (m[1] ?? '').split(','),
  );
  const locals = list
    .map((entry) => entry.trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((entry) => ({
      local: entry.split(/\s+as\s+/)[0] ?? entry,
      exported: entry.split(/\s+as\s+/).pop() ?? entry,
    }));
  return locals
    .filter(({ local }) => !declarationIsTagged(dts, local))
    .map(({ exported }) => exported);
}

function declarationIsTagged(dts: string, name: string): boolean {
  const escaped = name.replace(/\$/g, '\\$');
  const decl = new RegExp(
    `^(?:export )?(?:declare )?(?:abstract )?(?:const|let|function|class|interface|type|enum) ${escaped}\\b`,
    'gm',
  );
  for (const match of dts.matchAll(decl)) {
    const before = dts.slice(0, match.index).trimEnd();
    if (!before.endsWith('*/')) continue;
    const doc = before.slice(before.lastIndexOf('/**'));
    if (doc.includes('@experimental')) return true;
  }
  return false;
}
