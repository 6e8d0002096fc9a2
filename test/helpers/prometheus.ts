/** One sample of a Prometheus text exposition. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Exposition {
  readonly samples: readonly Sample[];
  /** `# TYPE` lines: metric family -> type. */
  readonly types: ReadonlyMap<string, string>;
  /** The value of the one sample with this name and (at least) these labels; undefined when none. */
  value(name: string, labels?: Readonly<Record<string, string>>): number | undefined;
  /** Every sample of this name. */
  all(name: string): Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/gy;

function unescape(value: string): string {
  return value.replace(/\\(n|"|\\)/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

function parseValue(raw: string): number {
  if (raw === '+Inf') return Infinity;
  if (raw === '-Inf') return -Infinity;
  // Go's ParseFloat, which Prometheus reads these with, takes NaN in any case (prom-client writes "Nan").
  if (raw.toLowerCase() === 'nan') return NaN;
  const value = Number(raw);
  if (Number.isNaN(value)) throw new Error(`not a sample value: ${raw}`);
  return value;
}

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  let consumed = 0;
  for (let match = LABEL.exec(text); match; match = LABEL.exec(text)) {
    labels[match[1] ?? ''] = unescape(match[2] ?? '');
    consumed = LABEL.lastIndex;
  }
  if (consumed !== text.length) throw new Error(`malformed labels in: ${line}`);
  return labels;
}

/** Parses the Prometheus text format (version 0.0.4), failing on any line it does not understand. */
export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
      if (type) types.set(type[1] ?? '', type[2] ?? '');
      else if (!/^# HELP \S+ /.test(line)) throw new Error(`malformed comment line: ${line}`);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`malformed sample line: ${line}`);
    samples.push({ name: match[1] ?? '', labels: parseLabels(match[2] ?? '', line), value: parseValue(match[3] ?? '') });
  }
  const matching = (name: string, labels: Readonly<Record<string, string>>) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return {
    samples,
    types,
    value(name, labels = {}) {
      const found = matching(name, labels);
      if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
      return found[0]?.value;
    },
    all: (name) => samples.filter((s) => s.name === name),
  };
}
