/**
 * Finds the exports of a built `.d.ts` bundle whose declaration lacks an `@experimental` TSDoc
 * tag. Works on tsup's bundled declarations: `export { … }` lists, each declaration
 * (`declare const`, `declare function`, `interface`, `type`, `declare class`) with its TSDoc
 * right above it, and declarations shared by several entries moved to a chunk file that the
 * entry imports (`import { E as EventStore } from './types-abc.js'`); `readChunk` reads those.
 */
export function untaggedExports(
  dts: string,
  readChunk: (specifier: string) => string | undefined = () => undefined,
): string[] {
  return exportList(dts, /^export (?:type )?\{([^}]*)\};?$/gm)
    .filter(({ local }) => !isTagged(dts, local, readChunk))
    .map(({ exported }) => exported);
}

interface Binding {
  local: string;
  exported: string;
}

function exportList(source: string, pattern: RegExp): Binding[] {
  return [...source.matchAll(pattern)]
    .flatMap((m) => (m[1] ?? '').split(','))
    .map((entry) => entry.trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((entry) => {
      const [local = entry, exported = local] = entry.split(/\s+as\s+/);
      return { local, exported };
    });
}

function isTagged(dts: string, name: string, readChunk: (s: string) => string | undefined) {
  if (declarationIsTagged(dts, name)) return true;
  // Not declared here: follow an import from a shared declaration chunk.
  for (const m of dts.matchAll(/^import \{([^}]*)\} from '([^']+)';$/gm)) {
    const imported = exportList(`export {${m[1]}};`, /^export \{([^}]*)\};$/gm);
    const binding = imported.find((b) => b.exported === name);
    const chunk = binding && readChunk(m[2] ?? '');
    if (!binding || !chunk) continue;
    const original = exportList(chunk, /^export (?:type )?\{([^}]*)\};?$/gm).find(
      (b) => b.exported === binding.local,
    );
    return original !== undefined && declarationIsTagged(chunk, original.local);
  }
  return false;
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
