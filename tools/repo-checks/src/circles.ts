import { isAbsolute, relative, sep } from 'node:path';
import { resolveRelative, scanImports } from './imports.ts';

/** Each source file and the files its relative imports resolve to. */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

/** Files that import one another round a loop (one file importing itself included). */
export interface ImportCircle {
  /** Every file of the circle, sorted. */
  files: string[];
  /** One way round it, from the first file back to that file. */
  loop: string[];
}

/** Folders of one source root that import one another round a loop (two or more). */
export interface FolderCircle {
  root: string;
  /** The folders (first path segment below `root`), sorted. */
  folders: string[];
  /** One way round, from the first folder back to it, with one import `[from, to]` per step. */
  steps: [string, string][];
}

/** What `findCircles` reports; both lists are empty for a graph whose imports go one way. */
export interface CircleFindings {
  circles: ImportCircle[];
  folderCircles: FolderCircle[];
}

/**
 * The import graph of `sources` (path → source text). Every import counts, type-only and dynamic
 * ones included: a type-only circle still ties the files together. Imports of files outside
 * `sources` (packages, assets) are left out.
 */
export function importGraph(sources: ReadonlyMap<string, string>): Map<string, string[]> {
  const exists = (path: string) => sources.has(path);
  const graph = new Map<string, string[]>();
  for (const [path, source] of sources) {
    const targets = new Set<string>();
    for (const specifier of scanImports(source).specifiers) {
      if (!specifier.startsWith('.')) continue;
      const target = resolveRelative(path, specifier, exists);
      if (target !== undefined) targets.add(target);
    }
    graph.set(path, [...targets].sort());
  }
  return graph;
}

/**
 * The import circles of `graph` (its strongly connected components of more than one file, and
 * files that import themselves), and the folders of each source root in `roots` that import
 * one another round a loop. Files directly in a root (entries, shared base files) belong to no
 * folder; a folder is the first path segment below the root, so its subfolders are part of it.
 */
export function findCircles(graph: ImportGraph, roots: readonly string[]): CircleFindings {
  const importsItself = (file: string) => edgesOf(graph, file).includes(file);
  const circles = components(graph)
    .filter((files) => files.length > 1 || importsItself(files[0] as string))
    .map((files) => ({ files, loop: loopThrough(graph, files) }));
  return { circles, folderCircles: folderCircles(graph, roots) };
}

function edgesOf(graph: ImportGraph, file: string): readonly string[] {
  return graph.get(file) ?? [];
}

/** Tarjan's strongly connected components, each sorted, in order of their first file. */
function components(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    onStack.add(file);
    for (const target of edgesOf(graph, file)) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file) as number, index.get(target) as number));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      onStack.delete(member);
      component.push(member);
      if (member === file) break;
    }
    found.push(component.sort());
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) visit(file);
  return found.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

/** A shortest loop from the first file of a component back to it, within the component. */
function loopThrough(graph: ImportGraph, files: readonly string[]): string[] {
  const start = files[0] as string;
  const members = new Set(files);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const target of edgesOf(graph, file)) {
      if (target === start) {
        const loop = [start];
        // Every file reached but the start has an entry; `?? start` only ends the walk.
        for (let step = file; step !== start; step = cameFrom.get(step) ?? start)
          loop.unshift(step);
        return [start, ...loop];
      }
      if (members.has(target) && !cameFrom.has(target)) {
        cameFrom.set(target, file);
        queue.push(target);
      }
    }
  }
  return [start];
}

/** The root `file` lies in (the longest, when roots nest) and its folder there, if any. */
function placeOf(
  file: string,
  roots: readonly string[],
): { root: string; folder?: string } | undefined {
  let best: { root: string; folder?: string } | undefined;
  for (const root of roots) {
    const inside = relative(root, file);
    if (inside.startsWith('..') || isAbsolute(inside)) continue;
    if (best !== undefined && best.root.length >= root.length) continue;
    const segments = inside.split(sep);
    best = segments.length > 1 ? { root, folder: segments[0] as string } : { root };
  }
  return best;
}

function folderCircles(graph: ImportGraph, roots: readonly string[]): FolderCircle[] {
  // Folders as nodes `[root, folder]`, with the first import seen along each folder edge.
  const node = (root: string, folder: string) => JSON.stringify([root, folder]);
  const folderGraph = new Map<string, string[]>();
  const example = new Map<string, [string, string]>();
  for (const file of [...graph.keys()].sort()) {
    const from = placeOf(file, roots);
    if (from?.folder === undefined) continue;
    const source = node(from.root, from.folder);
    const edges = folderGraph.get(source) ?? [];
    folderGraph.set(source, edges);
    for (const target of edgesOf(graph, file)) {
      const to = placeOf(target, roots);
      if (to?.folder === undefined || to.root !== from.root || to.folder === from.folder) continue;
      const sink = node(to.root, to.folder);
      if (!edges.includes(sink)) edges.push(sink);
      const way = JSON.stringify([source, sink]);
      if (!example.has(way)) example.set(way, [file, target]);
    }
  }
  return components(folderGraph)
    .filter((nodes) => nodes.length > 1)
    .map((nodes) => {
      const loop = loopThrough(folderGraph, nodes);
      const [root] = JSON.parse(nodes[0] as string) as [string, string];
      return {
        root,
        folders: nodes.map((n) => (JSON.parse(n) as [string, string])[1]).sort(),
        steps: loop
          .slice(1)
          .map((to, i) => example.get(JSON.stringify([loop[i], to])) as [string, string]),
      };
    });
}
