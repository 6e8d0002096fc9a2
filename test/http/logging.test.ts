import { spawn, spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logFormatFor, loggerOptions, REDACT_PATHS } from '../../src/http/logging.ts';
import { BIN, ROOT, startCli } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/stores.ts';

const SECRET = `wsk_test_${'S3cr3t'.repeat(7)}`;

describe('log format decision', () => {
  it('a terminal gets human-readable lines, anything else JSON', () => {
    expect(logFormatFor({ isTTY: true })).toBe('pretty');
    expect(logFormatFor({ isTTY: false })).toBe('json');
    expect(logFormatFor({})).toBe('json');
  });

  it('pretty lines go through pino-pretty; both formats keep the same redaction and serializers', () => {
    const pretty = loggerOptions('info', 'pretty') as Record<string, unknown>;
    const json = loggerOptions('info', 'json') as Record<string, unknown>;
    expect(pretty.transport).toMatchObject({ target: 'pino-pretty' });
    expect(json.transport).toBeUndefined();
    for (const options of [pretty, json]) {
      expect(options.redact).toEqual({ paths: REDACT_PATHS, censor: '[redacted]' });
      expect(options.serializers).toEqual(json.serializers);
      expect(options.level).toBe('info');
    }
  });
});

describe('server logs (real process)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await database.drop();
  });

  it('are JSON lines when stdout is not a terminal, with credentials in URLs redacted', async () => {
    const server = await startCli(['serve', '--port', '0', '--database-url', database.url]);
    try {
      await server.request(`/no-such-route?apiKey=${SECRET}`);
      await server.request('/health');
    } finally {
      await server.stop();
    }
    const lines = server.output().split('\n').filter((line) => line.trim() !== '');
    expect(lines.length).toBeGreaterThan(3);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(server.output()).not.toContain(SECRET);
    expect(server.output()).toContain('[redacted]');
  });

  const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
  it.runIf(hasScript)('are human-readable on a terminal, still redacted', async () => {
    // `script` runs the server on a pseudo-terminal, as when a person starts it by hand.
    const command = `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} serve --port 0 --database-url ${JSON.stringify(database.url)}`;
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: 'info', NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
    try {
      const deadline = Date.now() + 60_000;
      let base: string | undefined;
      while (!base && Date.now() < deadline) {
        base = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
        if (!base) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (!base) throw new Error(`server did not start:\n${output}`);
      await fetch(`${base}/no-such-route?apiKey=${SECRET}`);
      const until = Date.now() + 10_000;
      while (!output.includes('request completed') && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    } finally {
      child.kill('SIGTERM');
      await closed;
    }
    const lines = output.split(/\r?\n/).filter((line) => line.trim() !== '');
    expect(lines.some((line) => /INFO.*Server listening at/.test(line))).toBe(true);
    for (const line of lines) expect(line.trimStart().startsWith('{')).toBe(false);
    expect(output).not.toContain(SECRET);
    expect(output).toContain('[redacted]');
  });
});
