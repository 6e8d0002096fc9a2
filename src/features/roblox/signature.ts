/**
 * Roblox's webhook signature (docs/ROBLOX.md, "Erasure requests"): the header `roblox-signature: t=<unix
 * seconds>,v1=<base64>` where the signature is HMAC-SHA256, keyed with the webhook's secret, over `<t>.` and the
 * raw body's bytes. Compared in constant time; `t` must lie within 10 minutes of now.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_WINDOW_MS = 10 * 60 * 1000;

/** The signature of `body` at `timestamp` (Unix seconds, as the header carries it). */
export function robloxSignature(secret: string, timestamp: string, body: Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('base64');
}

/** Whether the header signs `body` with `secret` at a time within the window of `now` (epoch ms). */
export function verifyRobloxSignature(header: string | undefined, secret: string, body: Buffer, now: number): boolean {
  if (header === undefined) return false;
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (name === 't') timestamp = value;
    else if (name === 'v1') signatures.push(value);
  }
  if (timestamp === undefined || !/^[0-9]{1,12}$/.test(timestamp) || signatures.length === 0) return false;
  if (Math.abs(now - Number(timestamp) * 1000) > SIGNATURE_WINDOW_MS) return false;
  const expected = Buffer.from(robloxSignature(secret, timestamp, body), 'base64');
  return signatures.some((signature) => {
    const given = Buffer.from(signature, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
