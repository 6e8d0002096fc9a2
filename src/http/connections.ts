import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from '../shared/config.ts';
import type { ErrorCode } from '../shared/errors.ts';
import { newRequestId } from '../shared/ids.ts';
import { errorBody, STATUS_BY_CODE } from './errors.ts';

type TimeoutSettings = Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs' | 'keepAliveTimeoutMs'>;

interface NodeServerOptions {
  headersTimeout: number;
  requestTimeout: number;
  keepAliveTimeout: number;
  connectionsCheckingInterval: number;
  requireHostHeader: boolean;
}

/**
 * Bounds for every phase of a connection. Node checks the header and whole-request deadlines on a timer
 * (`connectionsCheckingInterval`, 30 s unless set), so the check runs often enough for the shortest bound to hold.
 * The socket inactivity timeout (`connectionTimeout`) covers what the two deadlines do not, a client that stops
 * reading its answer; at twice the request bound it never cuts a request short before that bound answers it.
 *
 * Node answers an HTTP/1.1 request without `Host` itself, with a bare 400 (no body, no request id), before any
 * hook runs; so its check is off here and the app answers it in the envelope (`answerMissingHost` in errors.ts).
 */
export function connectionOptions(
  settings: TimeoutSettings,
): Pick<FastifyServerOptions, 'requestTimeout' | 'keepAliveTimeout' | 'connectionTimeout'> & { http: NodeServerOptions } {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = settings;
  return {
    http: {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      keepAliveTimeout: keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, Math.max(25, Math.floor(headersTimeoutMs / 4))),
      requireHostHeader: false,
    },
    requestTimeout: requestTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    connectionTimeout: 2 * requestTimeoutMs,
  };
}

interface ClientErrorAnswer {
  readonly code: ErrorCode;
  readonly message: string;
}

/** Errors Node's HTTP parser raises before a request reaches the app, by Node's error code. */
const ANSWERS: Readonly<Record<string, ClientErrorAnswer>> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'request_timeout',
    message: 'The request (its headers, or its whole body) was not received in time.',
  },
  HPE_HEADER_OVERFLOW: { code: 'headers_too_large', message: 'The request line and headers are too large.' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { code: 'payload_too_large', message: 'The chunk extensions are too large.' },
};
const MALFORMED: ClientErrorAnswer = { code: 'bad_request', message: 'The request is not well-formed HTTP/1.1.' };

/** How long an answered, broken connection stays open for the answer to drain before it is destroyed. */
const LINGER_MS = 1_000;

/** A complete HTTP/1.1 error answer in the envelope, for writing straight to a socket. */
function rawAnswer(requestId: string, answer: ClientErrorAnswer): string {
  const status = STATUS_BY_CODE[answer.code];
  const body = JSON.stringify(errorBody(requestId, answer.code, answer.message));
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `X-Request-Id: ${requestId}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/** The response Node has in flight on the socket, if any (internal but stable: Node's own handler reads it). */
function responseInFlight(socket: Socket): ServerResponse | null | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
}

/**
 * Fastify's `clientErrorHandler`: an error of Node's HTTP parser (headers too large, malformed request line,
 * header or request timeout, …) is answered in the error envelope with a request id, wherever the socket still
 * allows an answer (it is writable and no response has started on it), and the connection is closed.
 */
export function answerClientError(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writableEnded) return; // answered already; the parser reports the rest of the stream too
  const answer = (error.code !== undefined ? ANSWERS[error.code] : undefined) ?? MALFORMED;
  const requestId = newRequestId();
  this.log.info(
    { reqId: requestId, parserError: error.code, statusCode: STATUS_BY_CODE[answer.code] },
    'client error answered',
  );
  if (!socket.writable || responseInFlight(socket)?.headersSent) {
    socket.destroy();
    return;
  }
  endWithAnswer(socket, requestId, answer);
}

/** Writes the answer and closes the connection once it has drained (or after LINGER_MS). */
function endWithAnswer(socket: Socket, requestId: string, answer: ClientErrorAnswer): void {
  // end(), not destroy(): destroying a socket with unread input resets it, and the client may lose the answer.
  socket.end(rawAnswer(requestId, answer));
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

const NOT_A_PROXY: ClientErrorAnswer = {
  code: 'bad_request',
  message: 'CONNECT is not supported: this server is not a proxy and opens no tunnels.',
};

/**
 * `CONNECT` asks for a tunnel to the host and port it names (its target is `host:port`, not a path of this API),
 * which only a proxy opens. Node hands such a request to the server's `'connect'` listeners with the bare socket,
 * outside the request pipeline, and destroys the socket unanswered when there are none. Answered here: 400
 * `bad_request` in the envelope, like the other requests refused before any route runs, and the connection closed
 * (the socket has left Node's HTTP parser, so no further request can be read from it).
 */
export function registerConnectAnswer(app: FastifyInstance): void {
  app.server.on('connect', (request: IncomingMessage, socket: Socket) => {
    // Node has removed its own error listener from the socket: a reset by the client must not go unhandled.
    socket.on('error', () => socket.destroy());
    const requestId = newRequestId();
    app.log.info(
      { reqId: requestId, method: request.method, statusCode: STATUS_BY_CODE[NOT_A_PROXY.code] },
      'CONNECT refused',
    );
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    endWithAnswer(socket, requestId, NOT_A_PROXY);
  });
}

/**
 * `Expect` values other than 100-continue: Node answers a bare 417 unless the server listens for
 * `checkExpectation`. Answered here in the envelope.
 */
export function registerExpectationHandler(app: FastifyInstance): void {
  app.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const requestId = newRequestId();
    const code: ErrorCode = 'expectation_failed';
    const body = JSON.stringify(
      errorBody(requestId, code, 'The Expect header can only be 100-continue; send the request without it.'),
    );
    app.log.info({ reqId: requestId, method: request.method, statusCode: STATUS_BY_CODE[code] }, 'expectation failed');
    response.writeHead(STATUS_BY_CODE[code], {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': requestId,
      connection: 'close',
    });
    response.end(body);
  });
}

/**
 * A request asking to switch protocols (an `Upgrade` header: websocket, h2c) is served as the plain HTTP/1.1
 * request it also is: this server speaks no other protocol and routes it as usual, in the envelope where it is an
 * error (RFC 9110, section 7.8: a server may ignore Upgrade). But with `Connection: upgrade` Node's parser stops
 * reading the connection after that request, as if another protocol followed, and drops what came behind it: a
 * request pipelined after it would never be answered. So its answer closes the connection, and the client sends
 * its next request on a fresh one.
 */
export function registerUpgradeAnswer(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.headers.upgrade !== undefined) reply.header('connection', 'close');
  });
}
