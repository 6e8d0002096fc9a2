/**
 * At most `max` Open Cloud calls per `windowMs` per API key (Roblox allows 300 a minute per key owner), counted by
 * this instance over a sliding window. Keys are held by their SHA-256, never as given.
 */
import { createHash } from 'node:crypto';

export class CallLimit {
  private readonly calls = new Map<string, number[]>();
  private readonly max: number;
  private readonly windowMs: number;

  constructor(max: number, windowMs: number) {
    this.max = max;
    this.windowMs = windowMs;
  }

  private recent(apiKey: string, now: number): number[] {
    const id = createHash('sha256').update(apiKey).digest('hex');
    const list = (this.calls.get(id) ?? []).filter((at) => at > now - this.windowMs);
    this.calls.set(id, list);
    return list;
  }

  /**
   * Takes `count` calls for the key at `now` when the window has room for them all, returning 0; else takes
   * none and returns how long until it has.
   */
  take(apiKey: string, count: number, now: number): number {
    const list = this.recent(apiKey, now);
    if (list.length + count <= this.max) {
      for (let i = 0; i < count; i += 1) list.push(now);
      return 0;
    }
    const freeing = list[list.length + count - this.max - 1] ?? now;
    return Math.max(1, freeing + this.windowMs - now);
  }
}
