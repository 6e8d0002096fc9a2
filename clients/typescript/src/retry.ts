/** When and how often the client sends a request again. */
export interface RetryOptions {
  /** Further attempts after the first (default 4; 0 never retries). */
  readonly retries?: number;
  /** First backoff step in ms (default 250); step n is base × 2^n, capped by `maxDelayMs`, with full jitter. */
  readonly baseDelayMs?: number;
  /** Largest backoff step in ms (default 8000). */
  readonly maxDelayMs?: number;
  /** A Retry-After longer than this (ms, default 60 000) is not waited for: the answer is returned as it is. */
  readonly maxRetryAfterMs?: number;
  /** Called before each retry (for logs and metrics). */
  readonly onRetry?: (retry: RetryEvent) => void;
  /** Random source in [0, 1) for the jitter (default Math.random). */
  readonly random?: () => number;
}

export interface RetryEvent {
  /** 1 for the first retry. */
  readonly attempt: number;
  readonly delayMs: number;
  readonly method: string;
  readonly url: string;
  /** The status that caused the retry, or undefined after a network error. */
  readonly status: number | undefined;
  readonly error: unknown;
}

export type FetchLike = (request: Request) => Promise<Response>;

/** 429 (rate limited), 503 and every other 5xx are worth another try; other answers are final. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Retry-After as ms: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Full-jitter exponential backoff: a random wait in [0, min(max, base × 2^step)). */
export function backoffMs(step: number, options: RetryOptions = {}): number {
  const base = options.baseDelayMs ?? 250;
  const max = options.maxDelayMs ?? 8000;
  const random = options.random ?? Math.random;
  return Math.floor(random() * Math.min(max, base * 2 ** step));
}

function sleep(ms: number, signal: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A 409 `idempotency_request_in_progress`: an earlier attempt of this very write (same Idempotency-Key) is still
 * being applied, for example one whose answer was lost to a timeout. Sent again later, it gets that attempt's result.
 */
async function isInProgress(request: Request, response: Response): Promise<boolean> {
  if (response.status !== 409 || !request.headers.has('idempotency-key')) return false;
  try {
    const body = (await response.clone().json()) as { error?: { code?: unknown } };
    return body.error?.code === 'idempotency_request_in_progress';
  } catch {
    return false;
  }
}

/**
 * `fetch` that sends the same request again (same headers, so the same Idempotency-Key, and the same body) after a
 * network error, a 5xx, a 429 or a 409 saying the same key's first attempt is still in progress, waiting as
 * Retry-After says or with backoff and jitter. Other answers are final.
 */
export function retryingFetch(transport: FetchLike, options: RetryOptions = {}): FetchLike {
  const retries = options.retries ?? 4;
  const maxRetryAfter = options.maxRetryAfterMs ?? 60_000;
  return async (request) => {
    for (let attempt = 0; ; attempt += 1) {
      // Each attempt sends a copy: a body can be read once.
      const last = attempt >= retries;
      let response: Response;
      try {
        response = await transport(last ? request : request.clone());
      } catch (error) {
        if (last || request.signal.aborted) throw error;
        const delayMs = backoffMs(attempt, options);
        options.onRetry?.({ attempt: attempt + 1, delayMs, method: request.method, url: request.url, status: undefined, error });
        await sleep(delayMs, request.signal);
        continue;
      }
      if (last || !(isRetryableStatus(response.status) || (await isInProgress(request, response)))) return response;
      const asked = retryAfterMs(response.headers.get('retry-after'));
      if (asked !== undefined && asked > maxRetryAfter) return response;
      // Waits at least what the gateway asked, plus jitter so that many clients do not return at the same instant.
      const delayMs = asked === undefined ? backoffMs(attempt, options) : asked + backoffMs(0, options);
      await response.body?.cancel();
      options.onRetry?.({ attempt: attempt + 1, delayMs, method: request.method, url: request.url, status: response.status, error: undefined });
      await sleep(delayMs, request.signal);
    }
  };
}
