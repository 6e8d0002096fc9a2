/**
 * Summarizes a V8 .cpuprofile (from `node --cpu-prof`): self time by package or area and by function, and
 * inclusive time of the heaviest functions. `node bench/profile-summary.ts <file.cpuprofile> [top]`
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
  readonly startTime: number;
  readonly endTime: number;
}

/** Where a frame's code lives: a package, the gateway's own source, Node internals or a V8 pseudo-frame. */
export function areaOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg?.[1]) return pkg[1];
  if (url.startsWith('node:')) return 'node internals';
  const own = /\/src\/(.+?)\.ts$/.exec(url);
  if (own?.[1]) return `gateway: ${own[1].split('/').slice(0, 2).join('/')}`;
  return url;
}

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/src\//, 'src/');
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
}

export function summarizeProfile(profile: CpuProfile, top = 25): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const totalUs = [...self.values()].reduce((a, b) => a + b, 0);

  // Inclusive time per node, then per function label (a label counted once per stack).
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const node = byId.get(cur);
      if (!node) break;
      const key = label(node);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }

  const selfByLabel = new Map<string, number>();
  const selfByArea = new Map<string, number>();
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (!node) continue;
    selfByLabel.set(label(node), (selfByLabel.get(label(node)) ?? 0) + us);
    const area = areaOf(node.callFrame.url, node.callFrame.functionName);
    selfByArea.set(area, (selfByArea.get(area) ?? 0) + us);
  }
  const busyUs = totalUs - (selfByArea.get('(idle)') ?? 0);
  const pct = (us: number, of: number) => `${((us / Math.max(of, 1)) * 100).toFixed(1).padStart(5)}%`;
  const ms = (us: number) => `${(us / 1000).toFixed(0).padStart(7)} ms`;
  const rows = (map: Map<string, number>, count: number, of: number) =>
    [...map.entries()]
      .filter(([key]) => !key.startsWith('(idle)') && !key.startsWith('(root)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([key, us]) => `  ${ms(us)} ${pct(us, of)}  ${key}`);
  return [
    `profile: ${(totalUs / 1e6).toFixed(1)} s sampled, ${(busyUs / 1e6).toFixed(1)} s not idle (percentages below are of the non-idle time)`,
    '',
    'self time by area:',
    ...rows(selfByArea, 20, busyUs),
    '',
    `self time by function (top ${top}):`,
    ...rows(selfByLabel, top, busyUs),
    '',
    `inclusive time by function (top ${top}):`,
    ...rows(inclusive, top, busyUs),
  ].join('\n');
}

export function summarizeProfileFile(path: string, top = 25): string {
  return summarizeProfile(JSON.parse(readFileSync(path, 'utf8')) as CpuProfile, top);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: node bench/profile-summary.ts <file.cpuprofile> [top]\n');
    process.exitCode = 2;
  } else {
    process.stdout.write(`${summarizeProfileFile(file, top ? Number(top) : 25)}\n`);
  }
}
