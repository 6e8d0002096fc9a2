/**
 * At most `max` Open Cloud calls per `windowMs` per API key (Roblox allows 300 a minute per key owner), counted
 * over a sliding window for every instance that shares the database (docs/ROBLOX.md, "The call limit"). Each key
 * has one row in `roblox_call_windows`, by its SHA-256 (never the key): the times of the calls taken in the last
 * window. Calls are taken in the claim's transaction, under that row's lock: the upsert that reads the row locks
 * it on PostgreSQL, so an instance taking calls for the same key waits for the other's commit and then reads what
 * it took; two instances never both take the last call. SQLite has one writer and runs the same statements.
 */
import { createHash } from 'node:crypto';
import type { Executor } from '../../../db/types.ts';

/** The limit: at most `max` calls (at least 2, a change's most) in any `windowMs`. */
export interface CallWindow {
  readonly max: number;
  readonly windowMs: number;
}

/** What one change asks for: its `calls` under `apiKey`. */
export interface CallRequest {
  readonly id: string;
  readonly apiKey: string;
  readonly calls: number;
}

/** How a key is named in the database: the SHA-256 of the key, in hex. */
export function keyHash(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('hex');
}

/**
 * Takes `count` calls at `now` from `times` (the calls taken so far) when the window has room for them all:
 * `{ times, waitMs: 0 }` with the times of the window's calls and the new ones; else `times` as they were (those
 * of the window) and how long until it has room.
 */
export function takeFrom(times: readonly number[], count: number, now: number, window: CallWindow): { times: number[]; waitMs: number } {
  const recent = times.filter((at) => at > now - window.windowMs).sort((a, b) => a - b);
  if (recent.length + count <= window.max) {
    for (let i = 0; i < count; i += 1) recent.push(now);
    return { times: recent, waitMs: 0 };
  }
  const freeing = recent[recent.length + count - window.max - 1] ?? now;
  return { times: recent, waitMs: Math.max(1, freeing + window.windowMs - now) };
}

function parseTimes(text: string | undefined): number[] {
  if (text === undefined) return [];
  const value = JSON.parse(text) as unknown;
  return Array.isArray(value) ? value.filter((at): at is number => typeof at === 'number') : [];
}

/**
 * Takes, in the caller's transaction, the calls of `requests` (in the order given, which is the order they are
 * tried in), per key: each request whose calls fit is given them; from the first that does not fit on, a key's
 * requests are not (later ones wait their turn). Returns the requests not given their calls, each with the time
 * its key's window has room for it. Keys are locked in the order of their hashes, so claims never deadlock.
 */
export async function takeCalls(
  trx: Executor,
  requests: readonly CallRequest[],
  now: number,
  window: CallWindow,
): Promise<Map<string, number>> {
  const byKey = new Map<string, CallRequest[]>();
  for (const request of requests) {
    const hash = keyHash(request.apiKey);
    byKey.set(hash, [...(byKey.get(hash) ?? []), request]);
  }
  const deferred = new Map<string, number>();
  for (const hash of [...byKey.keys()].sort()) {
    const row = await trx
      .insertInto('roblox_call_windows')
      .values({ key_hash: hash, calls: '[]' })
      // Writing the row's own value: the row is locked until the transaction ends, and its latest calls are read.
      .onConflict((oc) => oc.column('key_hash').doUpdateSet({ calls: (eb) => eb.ref('roblox_call_windows.calls') }))
      .returning('calls')
      .executeTakeFirst();
    let times = parseTimes(row?.calls);
    let until: number | null = null;
    for (const request of byKey.get(hash) ?? []) {
      if (until === null) {
        const taken = takeFrom(times, request.calls, now, window);
        times = taken.times;
        if (taken.waitMs > 0) until = now + taken.waitMs;
      }
      if (until !== null) deferred.set(request.id, until);
    }
    await trx.updateTable('roblox_call_windows').set({ calls: JSON.stringify(times) }).where('key_hash', '=', hash).execute();
  }
  return deferred;
}
