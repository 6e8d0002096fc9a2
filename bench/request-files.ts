/**
 * The arithmetic of `npm run bench:trace` (trace.ts): which source files a V8 precise-coverage result ran code in,
 * and what the repeats of one request kind have in common. Pure, so the probe (coverage-probe.ts) and the tests
 * share it.
 */
import { pathToFileURL } from 'node:url';

/** The part of `Profiler.takePreciseCoverage`'s result read here (the inspector protocol's ScriptCoverage). */
export interface ScriptCoverage {
  readonly url: string;
  readonly functions: readonly { readonly ranges: readonly { readonly count: number }[] }[];
}

/**
 * The files under `<repoRoot>/<folder>/` of which at least one function ran since the previous take, as paths
 * relative to the repository, sorted. A function's first range is the function itself; the ranges after it are
 * blocks inside it (with block coverage), which cannot run unless it did.
 */
export function filesRun(scripts: readonly ScriptCoverage[], repoRoot: string, folder = 'src'): string[] {
  const root = pathToFileURL(repoRoot).href.replace(/\/?$/, '/');
  const prefix = `${root}${folder}/`;
  const files = new Set<string>();
  for (const script of scripts) {
    if (!script.url.startsWith(prefix)) continue;
    if (script.functions.some((fn) => (fn.ranges[0]?.count ?? 0) > 0)) {
      files.add(decodeURIComponent(script.url.slice(root.length)));
    }
  }
  return [...files].sort();
}

/** What is in `a` and not in `b`, sorted. */
export function difference(a: Iterable<string>, b: Iterable<string>): string[] {
  const taken = new Set(b);
  return [...new Set(a)].filter((file) => !taken.has(file)).sort();
}

export function union(sets: readonly (readonly string[])[]): string[] {
  return [...new Set(sets.flat())].sort();
}

export function intersection(sets: readonly (readonly string[])[]): string[] {
  const [first, ...rest] = sets;
  if (first === undefined) return [];
  return [...new Set(first)].filter((file) => rest.every((set) => set.includes(file))).sort();
}

/** One measurement: the files a window with the request ran, less those the idle window before it ran. */
export interface Sample {
  readonly idle: readonly string[];
  readonly request: readonly string[];
}

export function requestFiles(sample: Sample): string[] {
  return difference(sample.request, sample.idle);
}

/** The repeats of one request kind, and what they agree on. */
export interface KindFiles {
  readonly kind: string;
  /** The request's files in each repeat (idle files taken off). */
  readonly repeats: readonly (readonly string[])[];
  /** In every repeat. */
  readonly every: readonly string[];
  /** In at least one repeat. */
  readonly any: readonly string[];
  /** Files idle windows ran (background work), in any repeat: left out of the request's. */
  readonly idle: readonly string[];
}

export function kindFiles(kind: string, samples: readonly Sample[]): KindFiles {
  const repeats = samples.map(requestFiles);
  return {
    kind,
    repeats,
    every: intersection(repeats),
    any: union(repeats),
    idle: union(samples.map((sample) => sample.idle)),
  };
}

/**
 * Files a kind ran that the reference (GET /health) did not: those in every repeat of the kind and in no repeat
 * of the reference, so that noise on either side does not count.
 */
export function beyond(kind: KindFiles, reference: KindFiles): string[] {
  return difference(kind.every, reference.any);
}
