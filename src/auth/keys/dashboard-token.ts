/**
 * Dashboard tokens the gateway signs itself (`tokens create`), beside those of the identity provider: HS256 with
 * the gateway's own key, an issuer and audience of the gateway's own (so neither kind passes for the other), `sub`
 * the dashboard user id. The key is `DASHBOARD_SIGNING_KEY` when configured, else a random 256-bit key generated on
 * first use and stored in the database (migration 0010). The configured key wins: it is the operator's deliberate
 * choice, kept with the other secrets and the same for every database the gateway is pointed at, and setting it
 * retires every token signed with the generated one; the generated key only spares a gateway that has none.
 */
import { randomBytes } from 'node:crypto';
import { decodeJwt, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import type { Executor } from '../../db/types.ts';
import { findSigningKey, insertSigningKeyIfAbsent } from './signing-key-repository.ts';

export const GATEWAY_TOKEN_ISSUER = 'workspace-gateway';
export const GATEWAY_TOKEN_AUDIENCE = 'workspace-gateway:dashboard';
export const DEFAULT_TOKEN_TTL_SECONDS = 8 * 3600;
export const MAX_TOKEN_TTL_SECONDS = 30 * 86_400;

const decodeKey = (secret: string): Uint8Array => new Uint8Array(Buffer.from(secret, 'base64url'));

/** The key to verify with: the configured one, else the stored one; none while neither exists (no token is valid). */
export async function currentSigningKey(db: Executor, configured: string | undefined): Promise<Uint8Array | undefined> {
  if (configured !== undefined) return decodeKey(configured);
  const stored = await findSigningKey(db);
  return stored === undefined ? undefined : decodeKey(stored);
}

/** The key to sign with: as `currentSigningKey`, generating and storing one when there is none yet. */
export async function obtainSigningKey(db: Executor, configured: string | undefined, now: number): Promise<Uint8Array> {
  const current = await currentSigningKey(db, configured);
  if (current !== undefined) return current;
  // Two first uses at once both insert; the row that landed first is the key, so both read it back.
  await insertSigningKeyIfAbsent(db, { secret: randomBytes(32).toString('base64url'), created_at: now });
  const stored = await findSigningKey(db);
  if (stored === undefined) throw new Error('the gateway signing key could not be stored');
  return decodeKey(stored);
}

export interface IssuedToken {
  readonly token: string;
  readonly userId: string;
  readonly expiresAt: string;
}

export async function issueDashboardToken(
  key: Uint8Array,
  input: { readonly userId: string; readonly ttlSeconds: number; readonly now: number },
): Promise<IssuedToken> {
  const issuedAt = Math.floor(input.now / 1000);
  const expiresAt = issuedAt + input.ttlSeconds;
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(GATEWAY_TOKEN_ISSUER)
    .setAudience(GATEWAY_TOKEN_AUDIENCE)
    .setSubject(input.userId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(key);
  return { token, userId: input.userId, expiresAt: new Date(expiresAt * 1000).toISOString() };
}

/** Whether the token says the gateway issued it (unverified: it only picks the key that must verify it). */
export function claimsGatewayIssuer(token: string): boolean {
  try {
    return decodeJwt(token).iss === GATEWAY_TOKEN_ISSUER;
  } catch {
    return false;
  }
}

/** The claims of a token the gateway signed; throws when the signature, issuer, audience or expiry is wrong. */
export async function verifyGatewayToken(token: string, key: Uint8Array, now: number): Promise<JWTPayload> {
  const { payload } = await jwtVerify(token, key, {
    algorithms: ['HS256'],
    issuer: GATEWAY_TOKEN_ISSUER,
    audience: GATEWAY_TOKEN_AUDIENCE,
    requiredClaims: ['exp', 'sub'],
    currentDate: new Date(now),
  });
  return payload;
}
