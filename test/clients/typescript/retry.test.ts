import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffMs, createGatewayClient, GatewayError, retryAfterMs } from '../../../clients/typescript/src/index.ts';

/** A real HTTP server that answers each request with the next scripted answer, and records what it received. */
interface Scripted {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
}

describe('TypeScript client retries (a scripted HTTP server)', () => {
  let server: Server;
  let baseUrl: string;
  let script: Scripted[] = [];
  let received: Array<{ method: string; key: string | undefined; body: string; at: number }> = [];

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ method: req.method ?? '', key: req.headers['idempotency-key'] as string | undefined, body, at: Date.now() });
        const next = script.shift() ?? { status: 500 };
        if (next.status === 0) {
          req.socket.destroy(); // a broken connection: no answer at all
          return;
        }
        res.writeHead(next.status, { 'content-type': 'application/json', 'x-request-id': 'req_0123456789abcdefXYZ', ...next.headers });
        res.end(JSON.stringify(next.body ?? {}));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const envelope = (code: string) => ({ error: { code, message: `${code} happened`, requestId: 'req_0123456789abcdefXYZ' } });
  const shift = { data: { shift: { id: 'x' }, existing: false } };
  const start = { gameUserId: '1', universeId: '2', placeId: '3', serverId: 's' };
  const client = () => createGatewayClient({ baseUrl, apiKey: 'wsk_test_abc', retry: { baseDelayMs: 10 } });

  it('retries a broken connection, 500, 503 and 429 with the same Idempotency-Key and the same body', async () => {
    received = [];
    script = [{ status: 0 }, { status: 500, body: envelope('internal_error') }, { status: 503 }, { status: 429 }, { status: 200, body: shift }];
    const reply = await client().startShift(start);
    expect(received).toHaveLength(5);
    expect(new Set(received.map((r) => r.key))).toEqual(new Set([reply.idempotencyKey]));
    expect(new Set(received.map((r) => r.body))).toEqual(new Set([JSON.stringify(start)]));
  });

  it('waits as Retry-After says before sending again', async () => {
    received = [];
    script = [{ status: 429, headers: { 'retry-after': '1' }, body: envelope('rate_limited') }, { status: 200, body: shift }];
    await client().startShift(start);
    const [first, second] = received;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it('retries a 409 idempotency_request_in_progress under the same key, but no other 409', async () => {
    received = [];
    script = [{ status: 409, body: envelope('idempotency_request_in_progress') }, { status: 200, body: shift }];
    const reply = await client().startShift(start);
    expect(received).toHaveLength(2);
    expect(new Set(received.map((r) => r.key))).toEqual(new Set([reply.idempotencyKey]));

    received = [];
    script = [{ status: 409, body: envelope('shift_not_active') }, { status: 200, body: shift }];
    await expect(client().startShift(start)).rejects.toMatchObject({ status: 409, code: 'shift_not_active' });
    expect(received).toHaveLength(1);
  });

  it('never retries another 4xx, and gives its envelope as a typed GatewayError', async () => {
    received = [];
    const details = { issues: [{ path: '/serverId', message: 'too long' }] };
    script = [{ status: 400, body: { error: { ...envelope('validation_failed').error, details } } }, { status: 200, body: shift }];
    const error = await client().startShift(start).catch((err: unknown) => err);
    expect(received).toHaveLength(1);
    expect(error).toBeInstanceOf(GatewayError);
    expect(error).toMatchObject({ status: 400, code: 'validation_failed', requestId: 'req_0123456789abcdefXYZ', details });
  });

  it('gives up after the configured retries with the last answer, and does not wait for a Retry-After over the cap', async () => {
    received = [];
    script = [{ status: 503 }, { status: 503 }, { status: 503, body: envelope('internal_error') }];
    const limited = createGatewayClient({ baseUrl, retry: { retries: 2, baseDelayMs: 5 } });
    await expect(limited.getHealth()).rejects.toMatchObject({ status: 503, code: 'internal_error' });
    expect(received).toHaveLength(3);

    received = [];
    script = [{ status: 429, headers: { 'retry-after': '3600' }, body: envelope('rate_limited') }];
    await expect(client().getHealth()).rejects.toMatchObject({ status: 429, code: 'rate_limited', retryAfterSeconds: 3600 });
    expect(received).toHaveLength(1);
  });

  it('each logical write has its own key; a caller-given key is sent as it is', async () => {
    received = [];
    script = [{ status: 200, body: shift }, { status: 200, body: shift }, { status: 200, body: shift }];
    await client().startShift(start);
    await client().startShift(start);
    await client().startShift(start, { idempotencyKey: 'chat-command-42' });
    expect(received[0]!.key).not.toBe(received[1]!.key);
    expect(received[2]!.key).toBe('chat-command-42');

    // A write through the typed openapi-fetch client without a key gets one too, reused on its retry.
    received = [];
    script = [{ status: 503 }, { status: 200, body: shift }];
    // Loosely typed on purpose: documents that mark the header required do not let this call compile.
    const raw = client().api as unknown as { POST(path: string, init: { body: unknown }): Promise<{ response: Response }> };
    const { response } = await raw.POST('/v1/activity/shifts/start', { body: start });
    expect(response.status).toBe(200);
    expect(received).toHaveLength(2);
    expect(received[0]!.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(received[1]!.key).toBe(received[0]!.key);
  });

  it('backoff grows exponentially under its cap with full jitter; Retry-After reads seconds and dates', () => {
    expect(backoffMs(0, { baseDelayMs: 100, random: () => 0.999 })).toBe(99);
    expect(backoffMs(3, { baseDelayMs: 100, random: () => 0.5 })).toBe(400);
    expect(backoffMs(10, { baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.5 })).toBe(500);
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });
});
