#!/usr/bin/env node
// Prints the figures of the last reliability run as a markdown table, to refresh docs/RELIABILITY.md:
//
//   npx vitest run test/reliability && node scripts/reliability-figures.js
//
// Reads every test/reliability/.results/*.json (or the folder given as the first argument). The crash and
// several-instances files get a summary of their own; any other file is flattened into `path: value` rows.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, URL } from 'node:url';

const dir = process.argv[2] ?? fileURLToPath(new URL('../test/reliability/.results/', import.meta.url));
/** Objects with more entries than this are counted, not listed. */
const MAX_LISTED = 12;

const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
const cell = (value) => String(value).replaceAll('|', '\\|');

/** Numbers summed over the items, strings tallied (`accepted ×1, rejected ×4`). */
function summarize(items) {
  const sums = {};
  const words = {};
  for (const item of items) {
    for (const [key, value] of Object.entries(item)) {
      if (typeof value === 'number') sums[key] = (sums[key] ?? 0) + value;
      else if (typeof value === 'string') (words[key] ??= {})[value] = (words[key][value] ?? 0) + 1;
    }
  }
  const parts = Object.entries(sums).map(([key, n]) => `${key} ${n}`);
  for (const [key, tally] of Object.entries(words)) {
    parts.push(`${key}: ${Object.entries(tally).map(([word, n]) => `${word} ×${n}`).join(', ')}`);
  }
  return `${items.length} × (${parts.join('; ')})`;
}

/** Generic rows: scalar leaves by dotted path; arrays of objects summarized; large maps counted. */
function flatten(value, path, rows) {
  if (Array.isArray(value)) {
    if (value.every(isObject)) rows.push([path, summarize(value)]);
    else rows.push([path, value.join(', ')]);
  } else if (isObject(value)) {
    const entries = Object.entries(value);
    if (path !== '' && entries.length > MAX_LISTED) {
      rows.push([path, `${entries.length} entries`]);
      return;
    }
    for (const [key, inner] of entries) flatten(inner, path === '' ? key : `${path}.${key}`, rows);
  } else {
    rows.push([path, value]);
  }
}

function crashRows(figures) {
  const rounds = figures.perRound ?? [];
  return [
    ['rounds (kill -9 mid-load, restart)', figures.rounds],
    ['kill after (ms), per round', rounds.map((r) => r.killAfterMs).join(', ')],
    ['requests sent', figures.requestsSent],
    ['writes acknowledged (2xx)', figures.writesAcknowledged],
    ['acknowledged writes found after the restart', figures.writesAcknowledgedFound],
    ['refused as expected (422 of a lost race)', figures.refusedAsExpected],
    ['in flight at the kill', figures.inFlightAtKill],
    ['… replayed a stored result', figures.inFlightReplayedStored],
    ['… applied once on replay', figures.inFlightAppliedOnReplay],
    ['… answered 409 in progress right after the restart, retried', figures.busyRetries],
    ['replays checked', figures.replaysChecked],
    ...gracefulRows(figures.gracefulShutdown),
  ];
}

function gracefulRows(round) {
  if (!round) return [];
  return [
    ['SIGTERM round: exit 0 after (ms)', round.shutdownMs],
    ['SIGTERM round: writes acknowledged / found', `${round.acknowledged} / ${round.acknowledgedFound}`],
    ['SIGTERM round: refused or reset, applied once on replay', round.inFlightAppliedOnReplay],
  ];
}

function instancesRows(figures) {
  const rows = [
    ['instances', figures.instances],
    ['SHIFT_TIMEOUT_SECONDS', figures.shiftTimeoutSeconds],
    ['requests', figures.requests],
  ];
  const races = {
    sameKeyStart: 'one key on every instance (start)',
    sameKeyAccept: 'one key on every instance (accept)',
    concurrentStarts: 'concurrent starts, one staff member',
    acceptVsReject: 'accept racing reject',
  };
  for (const [key, label] of Object.entries(races)) {
    if (figures[key]?.trials) rows.push([label, summarize(figures[key].trials)]);
  }
  const sweep = figures.sweep;
  if (sweep) {
    rows.push(['timeout sweep: shifts completed exactly once', `${sweep.completedExactlyOnce} of ${sweep.shifts}`]);
    const byInstance = Object.entries(sweep.completedByInstance ?? {})
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, n]) => `${name} ${n}`);
    rows.push(['timeout sweep: completed by', byInstance.join(', ')]);
  }
  return rows;
}

function rowsOf(name, figures) {
  if (name.startsWith('crash-')) return crashRows(figures);
  if (name === 'instances') return instancesRows(figures);
  const rows = [];
  flatten(figures, '', rows);
  return rows.filter(([path]) => path !== 'recordedAt');
}

let files;
try {
  files = readdirSync(dir).filter((file) => file.endsWith('.json')).sort();
} catch {
  files = [];
}
if (files.length === 0) {
  console.error(`No figures in ${dir}: run \`npx vitest run test/reliability\` first.`);
  process.exit(1);
}

const lines = ['| Suite | Figure | Value |', '|---|---|---|'];
for (const file of files) {
  const name = file.slice(0, -'.json'.length);
  let figures;
  try {
    figures = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  } catch (error) {
    lines.push(`| ${cell(name)} | unreadable | ${cell(error instanceof Error ? error.message : error)} |`);
    continue;
  }
  const recorded = typeof figures.recordedAt === 'string' ? ` (${figures.recordedAt.slice(0, 10)})` : '';
  for (const [i, [figure, value]] of rowsOf(name, figures).entries()) {
    lines.push(`| ${i === 0 ? cell(name + recorded) : ''} | ${cell(figure)} | ${cell(value ?? '')} |`);
  }
}
console.log(lines.join('\n'));
