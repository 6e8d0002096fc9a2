/**
 * Slow and stalled clients against a real `serve` process, on both stores: every phase of a request has a bounded
 * time (headers, body, idle keep-alive), answered in the error envelope where the socket allows it; SIGTERM with a
 * stalled client connected exits 0 once the shutdown deadline has passed; a crowd of stalled uploads that runs the
 * process out of file descriptors does not keep /health from answering.
 *
 * The bounds are set small here (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, KEEP_ALIVE_TIMEOUT_MS,
 * SHUTDOWN_TIMEOUT_SECONDS); the waits for them are generous, so a slow machine only makes the test slower.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkerFor } from '../helpers/contract.ts';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from '../helpers/stores.ts';
import { exchange, firstResponse, openRaw, within, type RawConnection } from './raw-http.ts';
import { killAll, seedLoadWorld, sleep, startGateway, type Gateway } from './serving.ts';

const BOUNDS = { HEADERS_TIMEOUT_MS: '500', REQUEST_TIMEOUT_MS: '1000', KEEP_ALIVE_TIMEOUT_MS: '500' };
/** How long a test waits for what the bounds above promise within about a second. */
const PATIENCE_MS = 20_000;

/** Stalled uploads sent at once; the process under test has 40 descriptors to spare. */
const CROWD = 200;

const portOf = (gateway: Gateway) => Number(new URL(gateway.baseUrl).port);

/** A start whose headers are complete and whose body (Content-Length 100) stops after one byte. */
function stalledUpload(apiKey: string, idempotencyKey: string): string {
  return (
    'POST /v1/activity/shifts/start HTTP/1.1\r\n' +
    'Host: 127.0.0.1\r\n' +
    `Authorization: Bearer ${apiKey}\r\n` +
    'Content-Type: application/json\r\n' +
    `Idempotency-Key: ${idempotencyKey}\r\n` +
    'Content-Length: 100\r\n\r\n{'
  );
}

/** Checks a timed-out request's answer: 408 request_timeout in the envelope, with its X-Request-Id. */
async function expectRequestTimeout(gateway: Gateway, received: string): Promise<void> {
  const response = firstResponse(received);
  expect(response.statusCode, received).toBe(408);
  expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'request_timeout' } });
  expect(response.headers.connection).toBe('close');
  (await checkerFor(gateway.baseUrl)).checkParserError(response);
}

afterAll(async () => {
  await killAll();
});

describe.each(STORE_KINDS)('slow clients (%s)', (kind) => {
  let database: TestDatabase;
  let apiKey: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    ({ apiKey } = await seedLoadWorld(database, { extraStaff: 0, submissions: 0 }));
  });

  afterAll(async () => {
    await killAll();
    await database?.drop();
  });

  describe('with every phase bounded', () => {
    let gateway: Gateway;
    beforeAll(async () => {
      gateway = await startGateway({ name: `bounds-${kind}`, databaseUrl: database.url, env: BOUNDS });
    });
    afterAll(async () => {
      expect(await gateway.stop()).toBe(0);
    });

    it('a stalled upload (Content-Length 100, one byte sent) is answered 408 request_timeout and closed', async () => {
      const received = await exchange(portOf(gateway), stalledUpload(apiKey, 'stalled-upload'), PATIENCE_MS);
      await expectRequestTimeout(gateway, received);
    });

    it('stalled headers are answered 408 request_timeout and closed', async () => {
      const received = await exchange(portOf(gateway), 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1', PATIENCE_MS);
      await expectRequestTimeout(gateway, received);
    });

    it('an idle keep-alive connection is closed after its answer', async () => {
      const received = await exchange(portOf(gateway), 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', PATIENCE_MS);
      const response = firstResponse(received);
      expect(response.statusCode).toBe(200);
      expect(response.headers.connection).toBe('keep-alive');
      expect(response.rest).toBe('');
    });
  });

  it('SIGTERM with a stalled upload connected: the connection is closed at the deadline and the process exits 0', async () => {
    // Requests themselves are not timed out within this test: only the shutdown deadline can end the stall.
    const gateway = await startGateway({
      name: `shutdown-${kind}`,
      databaseUrl: database.url,
      env: { REQUEST_TIMEOUT_MS: '600000', SHUTDOWN_TIMEOUT_SECONDS: '1' },
    });
    const stalled = await openRaw(portOf(gateway), stalledUpload(apiKey, 'stalled-at-shutdown'));
    // A complete request on another connection is answered, before and while the stall goes on.
    const answered = await fetch(`${gateway.baseUrl}/health`);
    expect(answered.status).toBe(200);
    await sleep(200); // the stalled request has reached the app
    // stop(): SIGTERM, then SIGKILL (exit code null) if the process is still there 10 s later.
    expect(await gateway.stop(), gateway.output()).toBe(0);
    await within(stalled.closed, PATIENCE_MS, 'stalled connection closed by the shutdown');
  }, 90_000);

  it('a crowd of stalled uploads exhausting file descriptors does not keep /health from answering', async () => {
    const gateway = await startGateway({
      name: `crowd-${kind}`,
      databaseUrl: database.url,
      env: BOUNDS,
      spareFileDescriptors: 40,
    });
    try {
      const crowd: RawConnection[] = [];
      for (let i = 0; i < CROWD; i += 1) {
        try {
          crowd.push(await openRaw(portOf(gateway), stalledUpload(apiKey, `crowd-${i}`)));
        } catch {
          // refused or reset at once: the process is out of descriptors, which is the point
        }
      }
      // Each try on a new connection (a pooled keep-alive one would need no new descriptor).
      let status = 0;
      const deadline = Date.now() + 45_000;
      while (status !== 200 && Date.now() < deadline) {
        try {
          const answer = await exchange(portOf(gateway), 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n', 3_000);
          status = firstResponse(answer).statusCode;
        } catch {
          await sleep(250);
        }
      }
      expect(status, gateway.output()).toBe(200);
      // Every stalled upload the process took in was timed out and closed (on PostgreSQL, a pool connection
      // closing when idle may free a descriptor for /health even without the bounds: this is what fails then).
      await within(Promise.all(crowd.map((c) => c.closed)), PATIENCE_MS, 'the crowd closed');
      expect(gateway.exited()).toBe(false);
      expect(await gateway.stop()).toBe(0);
    } finally {
      await gateway.crash();
    }
  }, 120_000);
});
