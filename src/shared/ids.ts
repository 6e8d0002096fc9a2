import * as crypto from 'node:crypto';
import { createHash, randomFillSync, randomUUID } from 'node:crypto';
import { v7 as uuidV7 } from 'uuid';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Cryptographic random bytes are drawn in blocks and each byte is used once: one system call per few hundred
// ids instead of one per id, so building an id almost never waits on the kernel.
const pool = Buffer.alloc(4096);
let poolOffset = pool.length;

function randomByte(): number {
  if (poolOffset === pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  const byte = pool[poolOffset] ?? 0;
  pool[poolOffset] = 0; // a used byte (part of a key secret, perhaps) does not stay in memory
  poolOffset += 1;
  return byte;
}

/** Uniformly random base62 string from a cryptographic source (rejection sampling avoids modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

export function newId(): string {
  return randomUUID();
}

/**
 * A uuid whose leading bits are the time it was made (version 7): rows that are appended and seldom changed
 * (events, commands, deliveries, attempts, shifts, submissions, inactivity notices) then go to the end of their
 * primary-key index, one page per commit, instead of to random pages all over it (a random id costs each insert
 * into a large table a page read: a fifth of an intake's or a time-off request's CPU on the benchmark's data).
 */
export function newTimeOrderedId(): string {
  return uuidV7();
}

export function newRequestId(): string {
  return `req_${randomBase62(20)}`;
}

// The one-shot digest (Node 20.12 and later) costs half of a Hash object's; every write computes two or three.
const oneShotHash: typeof crypto.hash | undefined = (crypto as { hash?: typeof crypto.hash }).hash;

export const sha256Hex: (value: string) => string =
  typeof oneShotHash === 'function'
    ? (value) => oneShotHash('sha256', value, 'hex')
    : (value) => createHash('sha256').update(value).digest('hex');

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const UUID_RE = new RegExp(UUID_PATTERN);

export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}
