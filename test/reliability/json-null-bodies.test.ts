/**
 * A JSON `null` body is a body that is not an object: 400 validation_failed on every route that reads a body, as
 * `[]`, `1` and `"x"` are, and it changes nothing (the key it came under stays unused). Only an absent or empty
 * body (no bytes, Content-Length 0) is "no body", where the route allows that. A real listening app on each store,
 * spoken to in raw bytes over a bare socket.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/shared/ids.ts';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { ContractChecker } from '../helpers/contract.ts';
import { bearer, buildFixture, dashboardToken, REVIEWER_USER_ID, seed, UNIVERSE_ID, type Fixture } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { submissionDoc, submissionRow } from '../features/applications/helpers.ts';
import { exchange, firstResponse, type RawResponse } from './raw-http.ts';

/** Bodies that are JSON but not an object. */
const NOT_OBJECTS = ['null', '[]', '1', '"x"', ' null\n'];

interface ErrorBody {
  error: { code: string; requestId: string; details?: { issues?: Array<{ path: string; message: string }> } };
}

describe.each(STORE_KINDS)('a JSON null body (%s)', (kind) => {
  let ctx: TestContext;
  let port: number;
  let checker: ContractChecker;
  let fixture: Fixture;
  let token: string;
  /** alice's shift, on server srv-1 (single stop), and bob's, on srv-2 (server stop). */
  let shiftId: string;
  let serverShiftId: string;
  const submissions = { accept: submissionDoc(), reject: submissionDoc(), 'mark-under-review': submissionDoc() };

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    fixture = buildFixture();
    fixture.workspace.submissions = [...(fixture.workspace.submissions ?? []), ...Object.values(submissions)];
    await seed(ctx, fixture);
    token = await dashboardToken(REVIEWER_USER_ID);
    const start = async (gameUserId: string, serverId: string): Promise<string> => {
      const res = await ctx.inject({
        method: 'POST',
        url: '/v1/activity/shifts/start',
        headers: { ...bearer(fixture.keys.test.secret), 'content-type': 'application/json', 'idempotency-key': newId() },
        payload: JSON.stringify({ gameUserId, universeId: UNIVERSE_ID, placeId: '7', serverId }),
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: { shift: { id: string } } }).data.shift.id;
    };
    shiftId = await start(fixture.staff.alice.gameUserId, 'srv-1');
    serverShiftId = await start(fixture.staff.bob.gameUserId, 'srv-2');
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = (ctx.app.server.address() as AddressInfo).port;
    checker = await ContractChecker.fromApp(ctx.app);
  });

  afterAll(async () => {
    await ctx?.close();
  });

  /** Sends one request in raw bytes (`body` undefined: no Content-Type, no body) and reads the answer. */
  async function send(method: string, path: string, credential: string, key: string, body?: string): Promise<RawResponse> {
    const head = [
      `${method} ${path} HTTP/1.1`,
      'Host: 127.0.0.1',
      `Authorization: Bearer ${credential}`,
      `Idempotency-Key: ${key}`,
      ...(body === undefined ? ['Content-Length: 0'] : ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`]),
      'Connection: close',
    ];
    const response = firstResponse(await exchange(port, `${head.join('\r\n')}\r\n\r\n${body ?? ''}`));
    checker.check(method, path, response);
    return response;
  }

  function expectNotAnObject(response: RawResponse): void {
    expect(response.statusCode, response.body).toBe(400);
    const body = JSON.parse(response.body) as ErrorBody;
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.requestId).toBe(response.headers['x-request-id']);
    expect(body.error.details?.issues).toEqual([{ path: 'body', message: 'must be object' }]);
  }

  async function shiftStatus(id: string): Promise<string> {
    const res = await ctx.inject({ method: 'GET', url: `/v1/activity/shifts/${id}`, headers: bearer(fixture.keys.test.secret) });
    return (res.json() as { data: { shift: { status: string } } }).data.shift.status;
  }

  async function submissionStatus(id: string): Promise<string> {
    return (await submissionRow(ctx, id)).status;
  }

  describe('routes whose body is required', () => {
    it.each(NOT_OBJECTS)('POST /v1/activity/shifts/start with %j is 400 validation_failed', async (body) => {
      expectNotAnObject(await send('POST', '/v1/activity/shifts/start', fixture.keys.test.secret, newId(), body));
    });

    it.each(NOT_OBJECTS)('POST /v1/activity/shifts/heartbeats with %j is 400 validation_failed', async (body) => {
      expectNotAnObject(await send('POST', '/v1/activity/shifts/heartbeats', fixture.keys.test.secret, newId(), body));
    });

    it.each(NOT_OBJECTS)('PATCH …/review with %j is 400 validation_failed', async (body) => {
      const id = submissions.accept.id;
      expectNotAnObject(await send('PATCH', `/v1/applications/submissions/${id}/review`, token, newId(), body));
    });
  });

  describe('routes whose body may be left out', () => {
    it.each(NOT_OBJECTS)('POST …/heartbeat with %j is 400 validation_failed and records nothing', async (body) => {
      const path = `/v1/activity/shifts/${shiftId}/heartbeat`;
      const key = newId();
      expectNotAnObject(await send('POST', path, fixture.keys.test.secret, key, body));
      // Nothing was stored under the key: the same key with an empty JSON body (Content-Length 0) runs, as no body
      // (a stored answer would replay, or be refused for another body).
      const empty = await send('POST', path, fixture.keys.test.secret, key, '');
      expect(empty.statusCode, empty.body).toBe(200);
      expect(empty.headers['idempotent-replayed']).toBeUndefined();
    });

    it('POST …/stop and POST /v1/activity/servers/{serverId}/stop with null are 400 and stop nothing; empty bodies stop', async () => {
      const stop = `/v1/activity/shifts/${shiftId}/stop`;
      const serverStop = '/v1/activity/servers/srv-2/stop';
      for (const body of NOT_OBJECTS) {
        expectNotAnObject(await send('POST', stop, fixture.keys.test.secret, newId(), body));
        expectNotAnObject(await send('POST', serverStop, fixture.keys.test.secret, newId(), body));
      }
      expect(await shiftStatus(shiftId)).toBe('active');
      expect(await shiftStatus(serverShiftId)).toBe('active');

      const stopped = await send('POST', stop, fixture.keys.test.secret, newId());
      expect(stopped.statusCode, stopped.body).toBe(200);
      const serverStopped = await send('POST', serverStop, fixture.keys.test.secret, newId());
      expect(serverStopped.statusCode, serverStopped.body).toBe(200);
      expect(JSON.parse(serverStopped.body)).toMatchObject({ data: { shifts: [{ id: serverShiftId }] } });
      expect(await shiftStatus(shiftId)).toBe('completed');
      expect(await shiftStatus(serverShiftId)).toBe('completed');
    });

    it.each(['accept', 'reject', 'mark-under-review'] as const)(
      'POST …/%s with null is 400 and decides nothing; with an empty body it decides',
      async (operation) => {
        const id = submissions[operation].id;
        const path = `/v1/applications/submissions/${id}/${operation}`;
        for (const body of NOT_OBJECTS) expectNotAnObject(await send('POST', path, token, newId(), body));
        expect(await submissionStatus(id)).toBe('submitted');
        const decided = await send('POST', path, token, newId());
        expect(decided.statusCode, decided.body).toBe(200);
        expect(await submissionStatus(id)).not.toBe('submitted');
      },
    );
  });
});
