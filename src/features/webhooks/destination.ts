import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { systemTimer, type Timer } from './timer.ts';

/** What one POST to an endpoint came to. `status` is null when no HTTP answer arrived (see `error`). */
export interface PostOutcome {
  readonly status: number | null;
  readonly durationMs: number;
  /** The start of the answer's body, at most `excerptBytes` long. */
  readonly excerpt: string | null;
  readonly error: string | null;
}

/** An outcome without an answer: nothing was sent, or nothing came back. */
export function noAnswer(error: string): PostOutcome {
  return { status: null, durationMs: 0, excerpt: null, error };
}

export interface DestinationOptions {
  readonly timeoutMs: number;
  /** Loopback, private, link-local and other internal addresses are refused unless this is set. */
  readonly allowPrivateNetworks: boolean;
  readonly excerptBytes: number;
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

/**
 * One HTTP client per sender: keep-alive agents, the checked lookup, and its deadline on `timer` (the system's
 * timers unless a test drives them).
 */
export function createDestinationClient(options: DestinationOptions, timer: Timer = systemTimer) {
  const lookup = checkedLookup(options.allowPrivateNetworks);
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 64, lookup } as http.AgentOptions),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 64, lookup } as https.AgentOptions),
  };

  function refusal(url: URL): string | null {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'the URL is not http(s)';
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // A literal address is never looked up, so it is checked here.
    if (isIP(host) !== 0 && !options.allowPrivateNetworks && !isPublicAddress(host)) {
      return `${host} is an internal address`;
    }
    return null;
  }

  /** POSTs `body`; never follows a redirect, gives up after the timeout, reads at most `excerptBytes` back. */
  function post(rawUrl: string, headers: Record<string, string>, body: string): Promise<PostOutcome> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      return Promise.resolve(noAnswer('the URL is invalid'));
    }
    const refused = refusal(url);
    if (refused) return Promise.resolve(noAnswer(`refused: ${refused}`));
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise((resolve) => {
      let settled = false;
      const finish = (outcome: Omit<PostOutcome, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        timer.clearTimeout(deadline);
        resolve({ ...outcome, durationMs: elapsed() });
      };
      const request = transport.request(url, {
        method: 'POST',
        agent: agents[url.protocol as 'http:' | 'https:'],
        lookup,
        headers: {
          ...headers,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'workspace-gateway-webhooks',
        },
      });
      const deadline = timer.setTimeout(() => {
        request.destroy(new Error(`no answer within ${options.timeoutMs} ms`));
      }, options.timeoutMs);
      request.on('error', (error) => {
        const message =
          error instanceof RefusedDestinationError ? `refused: ${error.message}` : error.message || 'request failed';
        finish({ status: null, excerpt: null, error: message });
      });
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const excerpt = Buffer.concat(chunks).subarray(0, options.excerptBytes).toString('utf8');
          finish({ status: response.statusCode ?? null, excerpt: excerpt === '' ? null : excerpt, error: null });
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
    },
  };
}

export type DestinationClient = ReturnType<typeof createDestinationClient>;
