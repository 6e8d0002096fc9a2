/**
 * Discord signs each interaction with the application's Ed25519 key: `X-Signature-Ed25519` (hex) over
 * `X-Signature-Timestamp` + the raw body (docs/DISCORD.md, "Security"). Verified with `node:crypto`, whose Ed25519
 * verification takes the same time whatever the signature; the public key is parsed once per key.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';

/** The DER prefix of an Ed25519 SubjectPublicKeyInfo: the 32 raw key bytes follow it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
/** How far a timestamp may be from the server clock, either way. */
export const SIGNATURE_WINDOW_SECONDS = 5 * 60;

const HEX_64 = /^[0-9a-fA-F]{64}$/;
const HEX_128 = /^[0-9a-fA-F]{128}$/;
const UNIX_SECONDS = /^[0-9]{1,12}$/;

export interface SignedRequest {
  readonly signature: string | undefined;
  readonly timestamp: string | undefined;
  readonly body: Buffer;
}

/** A verifier that keeps each public key it has parsed (an application's key changes only by provisioning). */
export function createSignatureVerifier() {
  const keys = new Map<string, KeyObject>();
  const keyOf = (publicKeyHex: string): KeyObject => {
    let key = keys.get(publicKeyHex);
    if (key === undefined) {
      if (keys.size >= 1024) keys.clear();
      key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(publicKeyHex, 'hex')]), format: 'der', type: 'spki' });
      keys.set(publicKeyHex, key);
    }
    return key;
  };

  /** True when the signature is the key's over timestamp + body and the timestamp is within the window of `nowMs`. */
  return function verifySignature(publicKeyHex: string, request: SignedRequest, nowMs: number): boolean {
    const { signature, timestamp, body } = request;
    if (signature === undefined || timestamp === undefined) return false;
    if (!HEX_64.test(publicKeyHex) || !HEX_128.test(signature) || !UNIX_SECONDS.test(timestamp)) return false;
    if (Math.abs(nowMs / 1000 - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS) return false;
    const message = Buffer.concat([Buffer.from(timestamp, 'utf8'), body]);
    return verify(null, message, keyOf(publicKeyHex.toLowerCase()), Buffer.from(signature, 'hex'));
  };
}

export type SignatureVerifier = ReturnType<typeof createSignatureVerifier>;
