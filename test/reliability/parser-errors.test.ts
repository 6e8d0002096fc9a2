/**
 * Requests Node's HTTP parser rejects before any route runs (headers over the limit, a malformed request line or
 * header, an `Expect` other than 100-continue) are answered in the error envelope with a stable code and an
 * X-Request-Id equal to `error.requestId`, and the connection is closed. A real listening app on each store, spoken
 * to over a bare socket (no HTTP client sends such requests).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../src/errors.ts';
import { createTestContext, type TestContext } from '../helpers/app.ts';
import { ContractChecker } from '../helpers/contract.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { exchange, firstResponse } from './raw-http.ts';

interface Case {
  readonly name: string;
  readonly request: string;
  readonly status: number;
  readonly code: ErrorCode;
}

const CASES: readonly Case[] = [
  {
    name: 'a 20 KB header is 431 headers_too_large',
    request: `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`,
    status: 431,
    code: 'headers_too_large',
  },
  {
    name: 'a lower-case method is 400 bad_request',
    request: 'get /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    status: 400,
    code: 'bad_request',
  },
  {
    name: 'a request line that is not HTTP is 400 bad_request',
    request: 'HELLO\r\n\r\n',
    status: 400,
    code: 'bad_request',
  },
  {
    name: 'a header name with a space is 400 bad_request',
    request: 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: 1\r\n\r\n',
    status: 400,
    code: 'bad_request',
  },
  {
    name: 'conflicting Content-Length and Transfer-Encoding is 400 bad_request',
    request:
      'POST /v1/activity/shifts/start HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n' +
      'Transfer-Encoding: chunked\r\n\r\n{}',
    status: 400,
    code: 'bad_request',
  },
  {
    name: 'Expect: bogus is 417 expectation_failed',
    request: 'POST /v1/activity/shifts/start HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: bogus\r\nContent-Length: 0\r\n\r\n',
    status: 417,
    code: 'expectation_failed',
  },
];

describe.each(STORE_KINDS)('errors of the HTTP parser (%s)', (kind) => {
  let context: TestContext;
  let port: number;
  let checker: ContractChecker;

  beforeAll(async () => {
    context = await createTestContext(kind);
    await context.app.listen({ port: 0, host: '127.0.0.1' });
    port = (context.app.server.address() as AddressInfo).port;
    checker = await ContractChecker.fromApp(context.app);
  });

  afterAll(async () => {
    await context?.close();
  });

  it.each(CASES)('$name, in the envelope with X-Request-Id, and the connection closed', async ({ request, status, code }) => {
    const received = await exchange(port, request);
    const response = firstResponse(received);
    expect(response.statusCode, received.slice(0, 300)).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.headers.connection).toBe('close');
    const body = JSON.parse(response.body) as { error: { code: string; requestId: string } };
    expect(body.error.code).toBe(code);
    expect(body.error.requestId).toBe(response.headers['x-request-id']);
    checker.checkParserError(response);
  });

  it('after an answered parser error, the server still serves (a fresh connection gets 200)', async () => {
    await exchange(port, 'get /health HTTP/1.1\r\n\r\n');
    const response = firstResponse(await exchange(port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
    expect(response.statusCode).toBe(200);
  });
});
