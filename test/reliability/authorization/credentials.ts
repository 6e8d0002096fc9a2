/** Forged, stolen, stale and misplaced credentials, with the outcome each must get on every route of its kind. */
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import type { ErrorCode } from '../../../src/shared/errors.ts';
import { DEFAULT_NOW, TEST_JWT_SECRET } from '../../helpers/app.ts';
import { dashboardToken, REVIEWER_USER_ID } from '../../helpers/fixtures.ts';
import { MULTI_USER_ID, type World } from '../world.ts';
import { key } from './requests.ts';

export const HOUR = 3_600_000;
export const ISSUER = 'https://idp.example.test/';
export const AUDIENCE = 'workspace-gateway';


export const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
export const secretKey = (secret: string) => new TextEncoder().encode(secret);
export const inAnHour = Math.floor((DEFAULT_NOW + HOUR) / 1000);

/** Dashboard tokens a hostile caller might present, all for the reviewer (a member with every permission of A). */
export async function forgedTokens(world: World) {
  const valid = world.tokens.reviewer;
  const [header, , signature] = valid.split('.');
  const rsa = await generateKeyPair('RS256');
  const publicPem = await exportSPKI(rsa.publicKey);
  const reviewer = () => new SignJWT({}).setSubject(REVIEWER_USER_ID).setExpirationTime(inAnHour);
  return {
    algNone: `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: REVIEWER_USER_ID, exp: inAnHour })}.`,
    algNoneCapitalised: `${b64({ alg: 'None', typ: 'JWT' })}.${b64({ sub: REVIEWER_USER_ID, exp: inAnHour })}.`,
    wrongSecret: await dashboardToken(REVIEWER_USER_ID, { secret: 'not-the-gateway-secret-0123456789abcdef' }),
    rs256: await reviewer().setProtectedHeader({ alg: 'RS256', jku: 'https://attacker.example/jwks.json' }).sign(rsa.privateKey),
    hs256KeyedWithPublicKey: await reviewer().setProtectedHeader({ alg: 'HS256' }).sign(secretKey(publicPem)),
    hs512RightSecret: await reviewer().setProtectedHeader({ alg: 'HS512' }).sign(secretKey(TEST_JWT_SECRET)),
    expired: await dashboardToken(REVIEWER_USER_ID, { expiresAt: DEFAULT_NOW - 1000 }),
    notYetValid: await dashboardToken(REVIEWER_USER_ID, { notBefore: DEFAULT_NOW + HOUR }),
    withoutExp: await dashboardToken(REVIEWER_USER_ID, { expiresAt: null }),
    withoutSub: await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(inAnHour).sign(secretKey(TEST_JWT_SECRET)),
    emptySub: await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('').setExpirationTime(inAnHour).sign(secretKey(TEST_JWT_SECRET)),
    tamperedSub: `${header}.${b64({ sub: MULTI_USER_ID, exp: inAnHour })}.${signature}`,
    tamperedExp: `${header}.${b64({ sub: REVIEWER_USER_ID, exp: inAnHour + 365 * 24 * 3600 })}.${signature}`,
    nonMember: await dashboardToken('user-of-no-workspace'),
    // Issuer and audience, for the app that checks them.
    issuerAndAudience: await dashboardToken(REVIEWER_USER_ID, { issuer: ISSUER, audience: AUDIENCE }),
    wrongIssuer: await dashboardToken(REVIEWER_USER_ID, { issuer: 'https://attacker.example/', audience: AUDIENCE }),
    wrongAudience: await dashboardToken(REVIEWER_USER_ID, { issuer: ISSUER, audience: 'another-service' }),
    withoutIssuer: await dashboardToken(REVIEWER_USER_ID, { audience: AUDIENCE }),
    withoutAudience: await dashboardToken(REVIEWER_USER_ID, { issuer: ISSUER }),
  };
}
export type Forged = Awaited<ReturnType<typeof forgedTokens>>;

export interface Outcome {
  readonly status: number;
  readonly code?: ErrorCode;
}

export interface CredentialAttack extends Outcome {
  readonly name: string;
  readonly auth: (w: World, forged: Forged) => string | null;
  /** Routes where the attack has another outcome than `status`/`code`, by route key. */
  readonly byRoute?: Readonly<Record<string, Outcome>>;
}

export const outcomeOn = (attack: CredentialAttack, routeKey: string): Outcome => attack.byRoute?.[routeKey] ?? attack;

/** The reviewers' reads of a whole workspace, and of one submission. */
export const WORKSPACE_READS = [
  'GET /v1/applications/submissions',
  'GET /v1/applications/stats',
  'GET /v1/staff/inactivity-notices',
] as const;
/** The managers' decisions on inactivity notices (the issuer control acts on a denied notice: 409). */
export const NOTICE_DECISIONS = [
  'POST /v1/staff/inactivity-notices/{noticeId}/approve',
  'POST /v1/staff/inactivity-notices/{noticeId}/deny',
] as const;
export const SUBMISSION_READ = 'GET /v1/applications/submissions/{submissionId}';
/** A staff member's rank: read, and changed to a fresh rank (always a change). */
export const RANK_ROUTES = ['GET /v1/staff/{staffId}/rank-changes', 'POST /v1/staff/{staffId}/rank'] as const;
/** The signed-in member's own workspaces: answered for any authenticated user, none for a member of none. */
export const CONSOLE_ME = 'GET /v1/console/me';
/** Reads that take an API key or a member's dashboard token. */
export const MEMBER_READS = ['GET /v1/activity/leaderboard', 'GET /v1/activity/shifts/active'] as const;
/** The staff side's reads: any member of the workspace; a member of none is refused the workspace. */
export const STAFF_READS = ['GET /v1/staff', 'GET /v1/staff/{staffId}'] as const;

export const unauthenticated = (name: string, auth: CredentialAttack['auth']): CredentialAttack => ({
  name,
  auth,
  status: 401,
  code: 'unauthenticated',
});

export function flipLastCase(secret: string): string {
  const last = secret.slice(-1);
  const flipped = last === last.toUpperCase() ? last.toLowerCase() : last.toUpperCase();
  return `${secret.slice(0, -1)}${flipped === last ? (last === '0' ? '1' : '0') : flipped}`;
}

/** Run against every API-key route. */
export const API_KEY_ATTACKS: readonly CredentialAttack[] = [
  unauthenticated('no Authorization header', () => null),
  unauthenticated('a revoked key', (w) => key(w.a.keys.revoked.secret)),
  unauthenticated('an expired key', (w) => key(w.a.keys.expired.secret)),
  unauthenticated('a key with one letter in another case', (w) => key(flipLastCase(w.a.keys.test.secret))),
  unauthenticated('a key with an upper-case prefix', (w) => key(w.a.keys.test.secret.replace('wsk_test_', 'WSK_TEST_'))),
  unauthenticated('a test key relabelled live', (w) => key(w.a.keys.test.secret.replace('wsk_test_', 'wsk_live_'))),
  unauthenticated('a key with a space inside', (w) => key(`${w.a.keys.test.secret.slice(0, 20)} ${w.a.keys.test.secret.slice(20)}`)),
  unauthenticated('a key after two spaces', (w) => `Bearer  ${w.a.keys.test.secret}`),
  unauthenticated('a key after a tab', (w) => `Bearer\t${w.a.keys.test.secret}`),
  unauthenticated('a key with a trailing character', (w) => key(`${w.a.keys.test.secret}.`)),
  unauthenticated('a truncated key', (w) => key(w.a.keys.test.secret.slice(0, -1))),
  unauthenticated('the key twice', (w) => `${key(w.a.keys.test.secret)} ${key(w.a.keys.test.secret)}`),
  unauthenticated('a key under another scheme', (w) => `Token ${w.a.keys.test.secret}`),
  unauthenticated('a key as Basic credentials', (w) => `Basic ${Buffer.from(`${w.a.keys.test.secret}:`).toString('base64')}`),
  unauthenticated('a bare key without a scheme', (w) => w.a.keys.test.secret),
  {
    ...unauthenticated('a valid dashboard token', (w) => key(w.tokens.reviewer)),
    // The reads the console shares take a member's token too: A's reviewer reads A.
    byRoute: Object.fromEntries(MEMBER_READS.map((r) => [r, { status: 200 }])),
  },
  unauthenticated('an unsigned token (alg none)', (_w, f) => key(f.algNone)),
  {
    name: 'a key of an application that is not approved',
    auth: (w) => key(w.unapproved.keys.test.secret),
    status: 403,
    code: 'application_not_approved',
  },
];

/** Run against every dashboard-token route. */
export const DASHBOARD_ATTACKS: readonly CredentialAttack[] = [
  unauthenticated('no Authorization header', () => null),
  unauthenticated('an unsigned token (alg none)', (_w, f) => key(f.algNone)),
  unauthenticated('an unsigned token (alg None)', (_w, f) => key(f.algNoneCapitalised)),
  unauthenticated('an HS256 token signed with another secret', (_w, f) => key(f.wrongSecret)),
  unauthenticated('an RS256 token with an attacker JWKS url', (_w, f) => key(f.rs256)),
  unauthenticated('an HS256 token keyed with an RSA public key', (_w, f) => key(f.hs256KeyedWithPublicKey)),
  unauthenticated('an HS512 token (only HS256 is accepted)', (_w, f) => key(f.hs512RightSecret)),
  unauthenticated('an expired token', (_w, f) => key(f.expired)),
  unauthenticated('a token not valid yet (nbf in the future)', (_w, f) => key(f.notYetValid)),
  unauthenticated('a token without exp', (_w, f) => key(f.withoutExp)),
  unauthenticated('a token without sub', (_w, f) => key(f.withoutSub)),
  unauthenticated('a token with an empty sub', (_w, f) => key(f.emptySub)),
  unauthenticated('a token whose sub was changed, with the original signature', (_w, f) => key(f.tamperedSub)),
  unauthenticated('a token whose exp was extended, with the original signature', (_w, f) => key(f.tamperedExp)),
  unauthenticated('a token with a space inside', (w) => key(`${w.tokens.reviewer.slice(0, 30)} ${w.tokens.reviewer.slice(30)}`)),
  unauthenticated('a token under another scheme', (w) => `JWT ${w.tokens.reviewer}`),
  unauthenticated('a workspace API key', (w) => key(w.a.keys.test.secret)),
  unauthenticated('a live API key', (w) => key(w.a.keys.live.secret)),
  unauthenticated('a malformed wsk_ credential', () => key('wsk_test_short')),
  unauthenticated('a token that is not a JWT', () => key('not.a.jwt')),
  {
    name: 'a valid token of a user who is a member of no workspace (sees nothing)',
    auth: (_w, f) => key(f.nonMember),
    status: 404,
    code: 'not_found',
    // Reading a whole workspace needs a permission in one: they hold none.
    byRoute: {
      ...Object.fromEntries(WORKSPACE_READS.map((r) => [r, { status: 403, code: 'permission_denied' as const }])),
      [CONSOLE_ME]: { status: 200 },
      ...Object.fromEntries(STAFF_READS.map((r) => [r, { status: 403, code: 'workspace_access_denied' as const }])),
    },
  },
];

/** Run against every dashboard-token route of an app configured with JWT_ISSUER and JWT_AUDIENCE. */
export const ISSUER_AUDIENCE_ATTACKS: readonly CredentialAttack[] = [
  // Control: the right issuer and audience authenticate (the accepted submission is then final: 422, the denied
  // notice 409; the reads answer 200).
  {
    name: 'the configured issuer and audience',
    auth: (_w, f) => key(f.issuerAndAudience),
    status: 422,
    code: 'submission_finalized',
    byRoute: Object.fromEntries([
      ...[...WORKSPACE_READS, SUBMISSION_READ, CONSOLE_ME, ...RANK_ROUTES, ...STAFF_READS].map((r) => [r, { status: 200 }]),
      ...NOTICE_DECISIONS.map((r) => [r, { status: 409, code: 'invalid_state_transition' as const }]),
    ]),
  },
  unauthenticated('another issuer', (_w, f) => key(f.wrongIssuer)),
  unauthenticated('another audience', (_w, f) => key(f.wrongAudience)),
  unauthenticated('no issuer', (_w, f) => key(f.withoutIssuer)),
  unauthenticated('no audience', (_w, f) => key(f.withoutAudience)),
  unauthenticated('a token valid without issuer and audience checks', (w) => key(w.tokens.reviewer)),
];
