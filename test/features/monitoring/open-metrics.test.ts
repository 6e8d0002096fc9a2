/**
 * A gateway process that listens beyond loopback without METRICS_TOKEN says, once, at warn level, that /metrics
 * answers anyone (docs/OPERATING.md, "Metrics"); with a token, or on loopback only, it says nothing of the kind.
 * Real `serve` processes on both stores, each on a fresh database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loopbackOnly } from '../../../src/features/monitoring/open-metrics.ts';
import { startCli } from '../../helpers/cli.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from '../../helpers/stores.ts';

interface LogLine {
  readonly level: number;
  readonly msg: string;
}

const WARN = 40;

/** Serves on `database` until it has said what it logs at start-up, asks for /metrics, stops; its log lines and that answer's status. */
async function serveOnce(database: TestDatabase, env: Record<string, string>): Promise<{ lines: LogLine[]; metrics: number }> {
  const server = await startCli(['serve', '--port', '0'], { DATABASE_URL: database.url, ...env }, (output) =>
    /serving on database/.test(output) ? /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1] : undefined,
  );
  try {
    const metrics = (await fetch(`${server.baseUrl}/metrics`)).status;
    return { lines: parseLines(server.output()), metrics };
  } finally {
    expect(await server.stop()).toBe(0);
  }
}

function parseLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

const aboutMetrics = (lines: readonly LogLine[]) => lines.filter((line) => line.msg.includes('METRICS_TOKEN'));

describe.each(STORE_KINDS)('the start-up warning about an open /metrics (%s)', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('listening on every address without METRICS_TOKEN: one warn line naming METRICS_TOKEN, and /metrics open indeed', async () => {
    const { lines, metrics } = await serveOnce(database, { HOST: '0.0.0.0', METRICS_TOKEN: '' });
    const warned = aboutMetrics(lines);
    expect(warned).toHaveLength(1);
    expect(warned[0]?.level).toBe(WARN);
    expect(warned[0]?.msg).toContain('GET /metrics answers anyone');
    expect(warned[0]?.msg).toContain('set METRICS_TOKEN');
    expect(metrics).toBe(200);
  });

  it('with METRICS_TOKEN set: no warning, and /metrics refuses a caller without it', async () => {
    const { lines, metrics } = await serveOnce(database, { HOST: '0.0.0.0', METRICS_TOKEN: 'metrics-secret-for-the-test' });
    expect(aboutMetrics(lines)).toEqual([]);
    expect(metrics).toBe(401);
  });

  it('listening on loopback only: no warning', async () => {
    const { lines, metrics } = await serveOnce(database, { HOST: '127.0.0.1', METRICS_TOKEN: '' });
    expect(aboutMetrics(lines)).toEqual([]);
    expect(lines.some((line) => line.msg.startsWith('serving on database'))).toBe(true);
    expect(metrics).toBe(200);
  });
});

describe('which listen addresses are loopback only', () => {
  it('127.0.0.0/8, ::1 and localhost are; wildcards, network addresses and other names are not', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', 'localhost', '::ffff:127.0.0.1']) expect(loopbackOnly(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.0.2.10', '10.0.0.5', 'gateway.example.com', '']) expect(loopbackOnly(host), host).toBe(false);
  });
});
