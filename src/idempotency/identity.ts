/**
 * Request identity: what makes two requests "the same" under an Idempotency-Key. The key's own rules, the
 * canonical form of a body, and the fingerprint stored with a result.
 */
import { AppError } from '../errors.ts';
import { sha256Hex } from '../ids.ts';

const MAX_KEY_LENGTH = 255;
const KEY_RE = /^[\x20-\x7e]+$/;

/** One request under a key: its principal's scope, the key as sent, and what it asks. */
export interface IdempotentCall {
  readonly scope: string;
  readonly key: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly requestId: string;
}

/** Stable JSON: the same object with keys in another order is the same request. */
export function canonicalJson(value: unknown): string {
  if (value === undefined) return '';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** What is wrong with a key as sent, if anything. */
function keyProblem(raw: string | undefined): 'missing' | 'invalid' | null {
  if (raw === undefined || raw === '') return 'missing';
  return raw.length > MAX_KEY_LENGTH || !KEY_RE.test(raw) ? 'invalid' : null;
}

/** The key, or the 400 that a missing or malformed one is. */
export function validateIdempotencyKey(raw: string | undefined): string {
  const problem = keyProblem(raw);
  if (problem === 'missing') {
    throw new AppError('idempotency_key_required', 'The Idempotency-Key header is required for this operation.');
  }
  if (problem === 'invalid') {
    throw new AppError('invalid_idempotency_key', 'Idempotency-Key must be 1 to 255 printable ASCII characters.');
  }
  return raw as string;
}

/** The key when it is valid, else null (for a write that leaves the refusal to the full operation). */
export function acceptableKey(raw: string | undefined): string | null {
  return keyProblem(raw) === null ? (raw as string) : null;
}

/** The request's fingerprint: method, path and canonical body. */
export function fingerprintOf(call: IdempotentCall): string {
  return sha256Hex(`${call.method.toUpperCase()} ${call.path}\n${canonicalJson(call.body)}`);
}
