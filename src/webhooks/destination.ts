import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import ipaddr from 'ipaddr.js';
import { systemTimer, type Timer, type TimerHandle } from './timer.ts';

/** What one POST to an endpoint came to. `status` is null when no HTTP answer arrived (see `error`). */
export interface PostOutcome {
  readonly status: number | null;
  readonly durationMs: number;
  /** The start of the answer's body, at most `excerptBytes` long. */
  readonly excerpt: string | null;
  readonly error: string | null;
  /** A 429's wait before the next attempt: its body's `retry_after` (seconds, Discord's), else its `Retry-After`. */
  readonly retryAfterMs?: number;
}

/** How long a 429 asks to wait, in ms: the body's `retry_after` seconds, else the `Retry-After` header's. */
export function retryAfterMs(excerpt: string | null, header: string | string[] | undefined): number | undefined {
  try {
    const body: unknown = excerpt === null ? null : JSON.parse(excerpt);
    const seconds = typeof body === 'object' && body !== null ? (body as { retry_after?: unknown }).retry_after : undefined;
    if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  } catch {
    // Not JSON: the header decides.
  }
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.ceil(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** An outcome without an answer: nothing was sent, or nothing came back. */
export function noAnswer(error: string): PostOutcome {
  return { status: null, durationMs: 0, excerpt: null, error };
}

export interface DestinationOptions {
  /** Connecting and sending a request must take less than this, and so must its answer once the request is sent. */
  readonly timeoutMs: number;
  /** Loopback, private, link-local and other internal addresses are refused unless this is set. */
  readonly allowPrivateNetworks: boolean;
  readonly excerptBytes: number;
  /**
   * Connections open to one origin (scheme, host and port) at most; a request beyond them waits for one, untimed.
   * The dispatcher passes its concurrency, so none of its requests ever waits.
   */
  readonly maxSocketsPerOrigin: number;
}

export class RefusedDestinationError extends Error {
  override name = 'RefusedDestinationError';
}

/** Only globally routable unicast addresses are public; IPv4-mapped IPv6 addresses are judged as IPv4. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/**
 * A DNS lookup that checks every address it returns, so the connection goes to the very address that was checked
 * (no second resolution an attacker's DNS could answer differently).
 */
function checkedLookup(allowPrivateNetworks: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) {
        callback(error, '', 4);
        return;
      }
      const usable = allowPrivateNetworks ? addresses : addresses.filter((a) => isPublicAddress(a.address));
      const first = usable[0];
      if (!first) {
        callback(new RefusedDestinationError(`${hostname} resolves only to internal addresses`), '', 4);
        return;
      }
      if (options.all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      else callback(null, first.address, first.family);
    });
  };
}

/** Errors of a connection the other side closed, as a request reused it. */
const DROPPED_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);

/** Our own deadline, which destroys the request: never a dropped connection. */
class DeadlineError extends Error {
  override name = 'DeadlineError';
}

/** What one request came to, and whether it died on a reused connection the receiver had already closed. */
interface Sent {
  readonly outcome: PostOutcome;
  readonly staleConnection: boolean;
}

/**
 * One HTTP client per sender: keep-alive agents, the checked lookup, and deadlines on `timer` (the system's
 * timers unless a test drives them).
 */
export function createDestinationClient(options: DestinationOptions, timer: Timer = systemTimer) {
  const lookup = checkedLookup(options.allowPrivateNetworks);
  const agentOptions = { keepAlive: true, maxSockets: options.maxSocketsPerOrigin, lookup };
  const agents = {
    'http:': new http.Agent(agentOptions as http.AgentOptions),
    'https:': new https.Agent(agentOptions as https.AgentOptions),
  };
  /** Requests sent on a connection of their own (not pooled), destroyed on close like the agents' sockets. */
  const unpooled = new Set<http.ClientRequest>();
  /**
   * Connections that have carried a request. Node marks a request `reusedSocket` only when a free connection
   * was waiting for it, not when it waited for one, so reuse is told from this.
   */
  const used = new WeakSet<Socket>();

  function refusal(url: URL): string | null {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'the URL is not http(s)';
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // A literal address is never looked up, so it is checked here.
    if (isIP(host) !== 0 && !options.allowPrivateNetworks && !isPublicAddress(host)) {
      return `${host} is an internal address`;
    }
    return null;
  }

  /**
   * POSTs `body`; never follows a redirect, reads at most `excerptBytes` back. A request that a receiver's closed
   * kept-alive connection dropped before any answer arrived (it never read it) is sent again at once, on a new
   * connection; a second failure is the attempt's outcome.
   */
  async function post(rawUrl: string, headers: Record<string, string>, body: string): Promise<PostOutcome> {
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return noAnswer('the URL is invalid');
    }
    const refused = refusal(url);
    if (refused) return noAnswer(`refused: ${refused}`);
    const first = await send(url, headers, body, agents[url.protocol as 'http:' | 'https:']);
    if (!first.staleConnection) return first.outcome;
    return (await send(url, headers, body, false)).outcome;
  }

  /**
   * One request, with two deadlines: connecting and sending it (from the moment it has a connection, new or
   * reused), then its answer (from the moment it is on the wire: connected and written). Waiting for a pooled
   * connection is not timed, so neither deadline measures anything but the receiver and the network.
   * `durationMs` is the time on the wire, or the time spent connecting when it never got there.
   */
  function send(url: URL, headers: Record<string, string>, body: string, agent: http.Agent | false): Promise<Sent> {
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise((resolve) => {
      let settled = false;
      let deadline: TimerHandle | null = null;
      let startedAt: number | null = null;
      let onWireAt: number | null = null;
      let connected = false;
      let written = false;
      let reused = false;
      let answered = false;
      const arm = (message: string) => {
        if (deadline !== null) timer.clearTimeout(deadline);
        deadline = timer.setTimeout(() => request.destroy(new DeadlineError(message)), options.timeoutMs);
      };
      const finish = (outcome: Omit<PostOutcome, 'durationMs'>, staleConnection = false) => {
        if (settled) return;
        settled = true;
        if (deadline !== null) timer.clearTimeout(deadline);
        unpooled.delete(request);
        const from = onWireAt ?? startedAt;
        const durationMs = from === null ? 0 : Math.round(performance.now() - from);
        resolve({ outcome: { ...outcome, durationMs }, staleConnection });
      };
      const onWire = () => {
        if (!connected || !written || onWireAt !== null) return;
        onWireAt = performance.now();
        arm(`no answer within ${options.timeoutMs} ms`);
      };
      const request = transport.request(url, {
        method: 'POST',
        agent,
        lookup,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'workspace-gateway-webhooks',
        },
      });
      if (agent === false) unpooled.add(request);
      request.on('socket', (socket) => {
        startedAt = performance.now();
        reused = used.has(socket);
        used.add(socket);
        if (reused) connected = true;
        else {
          // A new connection: on the wire once connected (for https, once the TLS handshake is done).
          socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
            connected = true;
            onWire();
          });
        }
        if (onWireAt === null) arm(`could not connect and send within ${options.timeoutMs} ms`);
        onWire();
      });
      // Written to the socket (for a new one, possibly into its buffer before it connects).
      request.on('finish', () => {
        written = true;
        onWire();
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        const message =
          error instanceof RefusedDestinationError ? `refused: ${error.message}` : error.message || 'request failed';
        const stale =
          agent !== false &&
          reused &&
          !answered &&
          !(error instanceof DeadlineError) &&
          DROPPED_CONNECTION.has(error.code ?? '');
        finish({ status: null, excerpt: null, error: message }, stale);
      });
      request.on('response', (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          // Decoding replaces bytes that are not UTF-8; a NUL is UTF-8 but no text column takes it (PostgreSQL
          // refuses it), so it is replaced too: any answer can be recorded.
          const excerpt = Buffer.concat(chunks).subarray(0, options.excerptBytes).toString('utf8').replaceAll('\u0000', '\ufffd');
          const text = excerpt === '' ? null : excerpt;
          const wait = response.statusCode === 429 ? retryAfterMs(text, response.headers['retry-after']) : undefined;
          finish({ status: response.statusCode ?? null, excerpt: text, error: null, ...(wait === undefined ? {} : { retryAfterMs: wait }) });
        };
        response.on('data', (chunk: Buffer) => {
          if (size < options.excerptBytes) chunks.push(chunk);
          size += chunk.length;
          // More than the excerpt is never read: the connection is dropped instead.
          if (size > options.excerptBytes * 4) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', done);
        response.on('close', done);
      });
      request.end(body);
    });
  }

  return {
    post,
    close(): void {
      agents['http:'].destroy();
      agents['https:'].destroy();
      for (const request of unpooled) request.destroy();
      unpooled.clear();
    },
  };
}

export type DestinationClient = ReturnType<typeof createDestinationClient>;
