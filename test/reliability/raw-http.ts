/**
 * HTTP/1.1 over a bare TCP socket, for what `fetch` cannot send: stalled requests, malformed request lines,
 * oversized headers. Everything the server sends is collected until it closes the connection.
 */
import { connect, type Socket } from 'node:net';
import type { CheckableResponse } from '../helpers/contract.ts';

export interface RawConnection {
  readonly socket: Socket;
  /** Everything received so far. */
  received(): string;
  /** Resolves with everything received once the server has closed the connection. */
  readonly closed: Promise<string>;
}

/** Connects to 127.0.0.1:`port` and writes `data` (resolves once connected and written). */
export function openRaw(port: number, data: string | Buffer): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect({ port, host: '127.0.0.1' });
    const closed = new Promise<string>((done) => socket.once('close', () => done(text)));
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    // The server may reset a connection it answered while input was still arriving; what came is kept.
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      socket.write(data, () => resolve({ socket, received: () => text, closed }));
    });
    socket.once('error', reject);
  });
}

/** Resolves with `promise`, or rejects after `ms` with `label` (the connection is then destroyed by the caller). */
export async function within<T>(promise: Promise<T>, ms: number, label: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${label}: nothing after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Sends `data` and resolves with everything received once the server closes (rejects after `ms`). */
export async function exchange(port: number, data: string | Buffer, ms = 20_000): Promise<string> {
  const connection = await openRaw(port, data);
  try {
    return await within(connection.closed, ms, 'waiting for the server to answer and close');
  } finally {
    connection.socket.destroy();
  }
}

export interface RawResponse extends CheckableResponse {
  readonly headers: Readonly<Record<string, string>>;
  /** What followed this response on the connection. */
  readonly rest: string;
}

/** The first HTTP response in `text` (header names in lower case; the body by Content-Length). */
export function firstResponse(text: string): RawResponse {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`no complete HTTP response in ${JSON.stringify(text.slice(0, 300))}`);
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const match = /^HTTP\/1\.1 (\d{3})/.exec(statusLine);
  if (!match) throw new Error(`not an HTTP/1.1 status line: ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? '0');
  const bodyBytes = Buffer.from(text.slice(end + 4), 'latin1');
  return {
    statusCode: Number(match[1]),
    headers,
    body: bodyBytes.subarray(0, length).toString('utf8'),
    rest: bodyBytes.subarray(length).toString('latin1'),
  };
}
