/**
 * Sends the open loop's requests: node's http client with a keep-alive agent whose socket limit no phase reaches,
 * so a slow answer never holds back the next send (a new connection opens instead).
 */
import { Agent, request as httpRequest } from 'node:http';
import type { OpenRequest } from './scenario.ts';

/** More sockets than requests in flight at the heavy level even behind a stall of several seconds. */
const MAX_SOCKETS = 4096;
const REQUEST_TIMEOUT_MS = 30_000;

export interface OpenAnswer {
  /** 0 when no answer came (a socket error or a timeout). */
  readonly status: number;
  /** The body, when asked for. */
  readonly body: string | null;
  /** performance.now() when the whole answer had arrived (or the request failed). */
  readonly endedAt: number;
  readonly error: string | null;
}

export interface OpenClient {
  send(request: OpenRequest, keepBody: boolean): Promise<OpenAnswer>;
  /** Sockets opened so far (a phase that needed many more than its steady share met a stall). */
  readonly socketsOpened: number;
  close(): void;
}

export function openClient(baseUrl: string): OpenClient {
  const url = new URL(baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: MAX_SOCKETS, maxFreeSockets: MAX_SOCKETS });
  const sockets = new WeakSet<object>();
  let socketsOpened = 0;
  return {
    get socketsOpened() {
      return socketsOpened;
    },
    send(spec, keepBody) {
      return new Promise((resolve) => {
        let settled = false;
        const done = (status: number, body: string | null, error: string | null) => {
          if (settled) return;
          settled = true;
          resolve({ status, body, endedAt: performance.now(), error });
        };
        const headers: Record<string, string | number> = { ...spec.headers };
        if (spec.body !== undefined) headers['content-length'] = Buffer.byteLength(spec.body);
        const req = httpRequest(
          { agent, host: url.hostname, port: url.port, method: spec.method, path: spec.path, headers },
          (res) => {
            const status = res.statusCode ?? 0;
            if (!keepBody) {
              res.resume();
              res.on('end', () => done(status, null, null));
            } else {
              const chunks: Buffer[] = [];
              res.on('data', (chunk: Buffer) => chunks.push(chunk));
              res.on('end', () => done(status, Buffer.concat(chunks).toString('utf8'), null));
            }
            res.on('error', (error) => done(0, null, error.message));
          },
        );
        req.on('socket', (socket) => {
          if (sockets.has(socket)) return;
          sockets.add(socket);
          socketsOpened += 1;
        });
        req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000} s`)));
        req.on('error', (error) => done(0, null, error.message));
        req.end(spec.body);
      });
    },
    close() {
      agent.destroy();
    },
  };
}
