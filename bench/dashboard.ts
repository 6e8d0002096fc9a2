/**
 * Dashboard tokens for the reviewers' reads: HS256, signed with a secret made for this run (never written
 * anywhere but the gateway's environment), for the big workspace's reviewer.
 */
import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';

/** The gateway under test verifies dashboard tokens with this secret (server.ts sets JWT_SECRET). */
export const DASHBOARD_JWT_SECRET = randomBytes(32).toString('base64url');

const TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

/** `{ authorization }` headers with a dashboard token for `userId`, valid for a day. */
export async function dashboardHeaders(userId: string): Promise<Record<string, string>> {
  const now = Math.floor(Date.now() / 1000);
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(userId)
    .setIssuedAt(now)
    .setExpirationTime(now + TOKEN_LIFETIME_SECONDS)
    .sign(new TextEncoder().encode(DASHBOARD_JWT_SECRET));
  return { authorization: `Bearer ${token}` };
}
