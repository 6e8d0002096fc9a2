import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey, type JWTPayload } from 'jose';
import { parseStringArray, type UserActor } from '../shared/actor.ts';
import type { Clock } from '../shared/clock.ts';
import type { Config } from '../shared/config.ts';
import type { Executor } from '../db/types.ts';
import { AppError, unauthenticated } from '../shared/errors.ts';
import { isUuid, sha256Hex } from '../shared/ids.ts';
import { API_KEY_PREFIX, isApiKeyFormat, RecentlyVerified } from './keys/api-key.ts';
import { findMemberships } from './members/repository.ts';
import { claimsGatewayIssuer, currentSigningKey, verifyGatewayToken } from './keys/dashboard-token.ts';

const ASYMMETRIC_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/**
 * A token's signature and claims are checked once a minute at most, then answered from memory until its expiry:
 * a console user sends the same token with every click, and checking its signature on each was a measurable share
 * of a dashboard request's cost (the key imported and the MAC computed by Web Crypto, off the event loop and back;
 * docs/BENCHMARKS.md, "Measurements behind the design"). Nothing about a
 * verified token changes but the time: the gateway's key and the configured issuer, audience and secret are fixed
 * while it serves, and an identity provider's keys are themselves cached for minutes by the key set. The members'
 * permissions are not cached: they are read for every request.
 */
const VERIFIED_TOKEN_MS = 60_000;
const VERIFIED_TOKEN_CAPACITY = 10_000;

export interface DashboardAuthenticator {
  /** The dashboard user of a bearer token (a JWT), with their workspace memberships and the selected workspace, if any. */
  user(token: string, workspaceSelector: string | undefined): Promise<UserActor>;
}

export interface DashboardAuthenticatorDeps {
  readonly db: Executor;
  readonly clock: Clock;
  readonly config: Pick<Config, 'jwtSecret' | 'jwtJwksUrl' | 'jwtIssuer' | 'jwtAudience' | 'dashboardSigningKey'>;
}

export function createDashboardAuthenticator({ db, clock, config }: DashboardAuthenticatorDeps): DashboardAuthenticator {
  const secretKey = config.jwtSecret ? new TextEncoder().encode(config.jwtSecret) : null;
  const jwks: JWTVerifyGetKey | null = config.jwtJwksUrl ? createRemoteJWKSet(new URL(config.jwtJwksUrl)) : null;
  // The gateway's own key (src/auth/keys/dashboard-token.ts), read once it exists: it never changes while serving.
  let gatewayKey: Uint8Array | undefined;
  // Tokens verified recently, by hash.
  const verified = new RecentlyVerified<JWTPayload>(VERIFIED_TOKEN_MS, VERIFIED_TOKEN_CAPACITY);

  /** The token's claims: verified now, or within the last minute and not expired since. */
  async function claims(token: string): Promise<JWTPayload> {
    const hash = sha256Hex(token);
    const hit = verified.get(hash, clock.now());
    if (hit !== undefined) return hit;
    const payload = await verifyJwt(token);
    // `exp` is required and was checked: the token is valid strictly before that second.
    if (typeof payload.exp === 'number') verified.remember(hash, payload, clock.now(), payload.exp * 1000 - 1);
    return payload;
  }

  async function verifyGatewayJwt(token: string): Promise<JWTPayload> {
    gatewayKey ??= await currentSigningKey(db, config.dashboardSigningKey);
    if (gatewayKey === undefined) throw unauthenticated('The dashboard token is invalid or expired.');
    try {
      return await verifyGatewayToken(token, gatewayKey, clock.now());
    } catch {
      throw unauthenticated('The dashboard token is invalid or expired.');
    }
  }

  async function verifyJwt(token: string): Promise<JWTPayload> {
    if (claimsGatewayIssuer(token)) return verifyGatewayJwt(token);
    const common = {
      requiredClaims: ['exp', 'sub'],
      currentDate: new Date(clock.now()),
      ...(config.jwtIssuer ? { issuer: config.jwtIssuer } : {}),
      ...(config.jwtAudience ? { audience: config.jwtAudience } : {}),
    };
    const header = token.split('.')[0] ?? '';
    let alg = '';
    try {
      alg = String((JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown }).alg ?? '');
    } catch {
      throw unauthenticated('The dashboard token is malformed.');
    }
    try {
      if (alg === 'HS256' && secretKey) {
        return (await jwtVerify(token, secretKey, { ...common, algorithms: ['HS256'] })).payload;
      }
      if (jwks && ASYMMETRIC_ALGS.includes(alg)) {
        return (await jwtVerify(token, jwks, { ...common, algorithms: ASYMMETRIC_ALGS })).payload;
      }
    } catch {
      throw unauthenticated('The dashboard token is invalid or expired.');
    }
    throw unauthenticated('The dashboard token is signed with an algorithm this gateway does not accept.');
  }

  return {
    async user(token, workspaceSelector) {
      if (isApiKeyFormat(token) || token.startsWith(API_KEY_PREFIX)) {
        throw unauthenticated('API keys are not accepted here; use a dashboard user token.');
      }
      const payload = await claims(token);
      const userId = payload.sub;
      if (typeof userId !== 'string' || userId === '' || userId.includes('\u0000')) {
        throw unauthenticated('The dashboard token has no usable subject.');
      }
      const rows = await findMemberships(db, userId);
      const memberships = new Map<string, ReadonlySet<string>>(
        rows.map((r) => [r.workspace_id, new Set(parseStringArray(r.permissions))]),
      );
      let selectedWorkspaceId: string | null = null;
      if (workspaceSelector !== undefined) {
        if (!isUuid(workspaceSelector)) {
          throw new AppError('validation_failed', 'X-Service-Workspace-Id must be a UUID.', {
            issues: [{ path: 'headers.x-service-workspace-id', message: 'must be a UUID' }],
          });
        }
        const selected = workspaceSelector.toLowerCase();
        if (!memberships.has(selected)) {
          throw new AppError('workspace_access_denied', 'You are not a member of the selected workspace.');
        }
        selectedWorkspaceId = selected;
      }
      return { kind: 'user', userId, memberships, selectedWorkspaceId };
    },
  };
}
