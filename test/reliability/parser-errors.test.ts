/**
 * Requests refused before any route runs are answered in the error envelope with a stable code and an X-Request-Id
 * equal to `error.requestId`, and the connection is closed: what Node's HTTP parser rejects (headers over the limit,
 * a malformed request line or header, an `Expect` other than 100-continue), an HTTP/1.1 request without `Host`, and
 * `CONNECT` (a tunnel request; this server is no proxy). An HTTP/1.0 request without Host is served, and a request
 * asking to switch protocols (`Upgrade`) is served as plain HTTP, then its connection closed. A real listening app
 * on each store, spoken to over a bare socket (no HTTP client sends such requests).
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../src/shared/errors.ts';
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
    name: 'an HTTP/1.1 request without Host is 400 bad_request',
    request: 'GET /health HTTP/1.1\r\n\r\n',
    status: 400,
    code: 'bad_request',
  },
  {
    name: 'an HTTP/1.1 request without Host to an unknown path is 400 bad_request (not 404)',
    request: 'GET /nowhere HTTP/1.1\r\n\r\n',
    status: 400,
    code: 'bad_request',
  },
  {
    name: 'an HTTP/1.1 request without Host and without credentials is 400 bad_request (not 401)',
    request: 'POST /v1/activity/shifts/start HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
    status: 400,
    code: 'bad_request',
  },
  {
    name: 'an HTTP/1.1 request without Host whose path is not valid percent-encoding is 400 bad_request (not 404)',
    request: 'GET /v1/activity/shifts/%zz HTTP/1.1\r\n\r\n',
    status: 400,
    code: 'bad_request',
  },
  {
    name: 'CONNECT host:port is 400 bad_request',
    request: 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    status: 400,
    code: 'bad_request',
  },
  {
    name: 'CONNECT followed at once by tunnel bytes is 400 bad_request',
    request: 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n\x16\x03\x01\x00\x05hello',
    status: 400,
    code: 'bad_request',
  },
  {
    name: 'CONNECT to a path of the API is 400 bad_request',
    request: 'CONNECT /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
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

  it('a request pipelined behind one without Host is not read: the connection closes after the 400', async () => {
    const received = await exchange(port, 'GET /health HTTP/1.1\r\n\r\nGET /version HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const response = firstResponse(received);
    expect(response.statusCode).toBe(400);
    expect(response.rest).toBe('');
  });

  it('an HTTP/1.0 request without Host is served, its errors in the envelope too', async () => {
    const health = firstResponse(await exchange(port, 'GET /health HTTP/1.0\r\n\r\n'));
    expect(health.statusCode).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ status: 'ok', service: 'workspace-gateway' });
    checker.check('GET', '/health', health);
    const unknown = firstResponse(await exchange(port, 'GET /nowhere HTTP/1.0\r\n\r\n'));
    expect(unknown.statusCode).toBe(404);
    const body = JSON.parse(unknown.body) as { error: { code: string; requestId: string } };
    expect(body.error).toMatchObject({ code: 'not_found', requestId: unknown.headers['x-request-id'] });
    checker.checkParserError(unknown);
  });

  describe('a request asking to switch protocols (Upgrade) is served as plain HTTP/1.1, then its connection closed', () => {
    const upgrade = 'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n' +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n';

    it('a known route answers as usual (200), and a request pipelined behind it is not left waiting', async () => {
      const received = await exchange(
        port,
        `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n${upgrade}\r\nGET /version HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
      );
      const response = firstResponse(received);
      expect(response.statusCode).toBe(200);
      expect(response.headers.connection).toBe('close');
      expect(response.headers.upgrade).toBeUndefined();
      expect(response.rest).toBe('');
      checker.check('GET', '/health', response);
    });

    it('an unknown path is 404 not_found in the envelope', async () => {
      const response = firstResponse(await exchange(port, `GET /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\n${upgrade}\r\n`));
      expect(response.statusCode).toBe(404);
      expect(response.headers.connection).toBe('close');
      const body = JSON.parse(response.body) as { error: { code: string; requestId: string } };
      expect(body.error).toMatchObject({ code: 'not_found', requestId: response.headers['x-request-id'] });
      checker.checkParserError(response);
    });

    it('a write with a body and no credentials is 401 unauthenticated in the envelope (h2c)', async () => {
      const request =
        'POST /v1/activity/shifts/start HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade, HTTP2-Settings\r\n' +
        'Upgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\nContent-Type: application/json\r\n' +
        'Content-Length: 2\r\n\r\n{}';
      const response = firstResponse(await exchange(port, request));
      expect(response.statusCode).toBe(401);
      expect(response.headers.connection).toBe('close');
      const body = JSON.parse(response.body) as { error: { code: string; requestId: string } };
      expect(body.error).toMatchObject({ code: 'unauthenticated', requestId: response.headers['x-request-id'] });
      checker.check('POST', '/v1/activity/shifts/start', response);
    });
  });

  it('after an answered parser error, the server still serves (a fresh connection gets 200)', async () => {
    await exchange(port, 'get /health HTTP/1.1\r\n\r\n');
    const response = firstResponse(await exchange(port, 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
    expect(response.statusCode).toBe(200);
  });
});
