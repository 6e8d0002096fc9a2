/**
 * The import graph of src/: which file imports which (imports of types only left out: they leave no dependency at
 * run time), and the same folded to modules (a folder under src/, `features/<feature>` for a feature, the
 * activity domain as one; a file at the top is its own module).
 */
import { dirname, join, normalize } from 'node:path';
import { sourceFiles, sourceText } from './statements.ts';

const IMPORT = /^(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s+'(\.[^']+)'/gms;

/** Each file's value imports of other files of src/ (paths under src/). */
export function fileImports(): Map<string, Set<string>> {
  const files = new Set(sourceFiles());
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const match of sourceText(file).matchAll(IMPORT)) {
      let target = normalize(join(dirname(file), match[1] ?? '')).split('\\').join('/');
      if (target.endsWith('.js')) target = `${target.slice(0, -3)}.ts`;
      if (!target.endsWith('.ts')) target = `${target}.ts`;
      if (files.has(target)) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The module a file belongs to, for the module drawing of docs/ARCHITECTURE.md. */
export function drawnModuleOf(file: string): string {
  const parts = file.split('/');
  if (parts.length === 1) return file.replace(/\.ts$/, '');
  if (parts[0] === 'features') return `features/${parts[1]}`;
  return parts[0] ?? file;
}

/** The modules each module imports from. */
export function moduleImports(): Map<string, Set<string>> {
  const modules = new Map<string, Set<string>>();
  for (const [file, targets] of fileImports()) {
    const from = drawnModuleOf(file);
    const set = modules.get(from) ?? new Set<string>();
    for (const target of targets) {
      const to = drawnModuleOf(target);
      if (to !== from) set.add(to);
    }
    modules.set(from, set);
  }
  return modules;
}

/** The cycles of a graph: its strongly connected components of more than one node (Tarjan). */
export function cyclesOf(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      for (;;) {
        const member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
        if (member === node) break;
      }
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

/**
 * The module drawing: one line per module, `module ─► what it imports`, modules that import nothing first and each
 * after everything it imports (so every arrow points up the page).
 */
export function moduleDrawing(): string[] {
  const graph = moduleImports();
  const placed: string[] = [];
  const remaining = new Set(graph.keys());
  while (remaining.size > 0) {
    const ready = [...remaining].filter((m) => [...(graph.get(m) ?? [])].every((d) => !remaining.has(d))).sort();
    if (ready.length === 0) throw new Error(`module cycle among ${[...remaining].join(', ')}`);
    for (const m of ready) {
      placed.push(m);
      remaining.delete(m);
    }
  }
  const width = Math.max(...placed.map((m) => m.length));
  return placed.map((m) => {
    const targets = [...(graph.get(m) ?? [])].sort();
    return targets.length === 0 ? m : `${m.padEnd(width)} ─► ${targets.join(', ')}`;
  });
}
