/**
 * Hostile callers, on every route of the served OpenAPI document:
 * - forged, stolen, stale and misplaced credentials on every API-key route and every dashboard route (JWT attacks,
 *   issuer and audience when configured, API keys where tokens belong and the reverse);
 * - per route, an authorization table: other workspaces, other applications, the other environment, spoofed
 *   X-Service-Workspace-Id and X-Chat-Guild-Id, missing scopes and permissions, with the legitimate call as control.
 * Every case asserts status and error code, and that a rejected request changed nothing.
 * The matrix test fails when a served route has no table here.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import type { ErrorCode } from '../../src/errors.ts';
import { newId } from '../../src/ids.ts';
import { createTestContext, DEFAULT_NOW, TEST_JWT_SECRET, testConfig, type TestContext } from '../helpers/app.ts';
import { checkedInject, type Inject } from '../helpers/contract.ts';
import { dashboardToken, GUILD_ID, REVIEWER_USER_ID, SECOND_GUILD_ID, UNIVERSE_ID } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { fillPath, servedRoutes, type ServedRoute } from './served-routes.ts';
import { businessSnapshot, changedTables, MULTI_USER_ID, seedWorld, type World } from './world.ts';

const ROUTES = await servedRoutes();
const RESULTS_DIR = fileURLToPath(new URL('./.results/', import.meta.url));
/** Cases run per store, by expected status: written to .results/hostile.json for the reliability figures. */
const tally: Record<string, { cases: number; byStatus: Record<string, number> }> = {};
const HOUR = 3_600_000;
const ISSUER = 'https://idp.example.test/';
const AUDIENCE = 'workspace-gateway';

// ---------------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------------

interface RequestParts {
  /** The raw Authorization header; null sends none. */
  readonly auth?: string | null;
  readonly path?: Readonly<Record<string, string>>;
  readonly query?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A JSON body; undefined sends none. */
  readonly body?: unknown;
}

const key = (secret: string) => `Bearer ${secret}`;

function merge(base: RequestParts, over: RequestParts): RequestParts {
  return { ...base, ...over, headers: { ...base.headers, ...over.headers } };
}

/** The route's request from its parts: writes get a fresh Idempotency-Key, bodies a JSON content type. */
function build(route: ServedRoute, parts: RequestParts): InjectOptions {
  const headers: Record<string, string> = {};
  if (parts.auth) headers.authorization = parts.auth;
  if (route.parameters.some((p) => p.name === 'idempotency-key')) headers['idempotency-key'] = `hostile-${newId()}`;
  if (parts.body !== undefined) headers['content-type'] = 'application/json';
  Object.assign(headers, parts.headers);
  return {
    method: route.method as InjectOptions['method'],
    url: `${fillPath(route.template, parts.path ?? {})}${parts.query ? `?${parts.query}` : ''}`,
    headers,
    ...(parts.body === undefined ? {} : { payload: JSON.stringify(parts.body) }),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Attack credentials
// ---------------------------------------------------------------------------------------------------------

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const secretKey = (secret: string) => new TextEncoder().encode(secret);
const inAnHour = Math.floor((DEFAULT_NOW + HOUR) / 1000);

/** Dashboard tokens a hostile caller might present, all for the reviewer (a member with every permission of A). */
async function forgedTokens(world: World) {
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
type Forged = Awaited<ReturnType<typeof forgedTokens>>;

interface Outcome {
  readonly status: number;
  readonly code?: ErrorCode;
}

interface CredentialAttack extends Outcome {
  readonly name: string;
  readonly auth: (w: World, forged: Forged) => string | null;
  /** Routes where the attack has another outcome than `status`/`code`, by route key. */
  readonly byRoute?: Readonly<Record<string, Outcome>>;
}

const outcomeOn = (attack: CredentialAttack, routeKey: string): Outcome => attack.byRoute?.[routeKey] ?? attack;

/** The reviewers' reads of a whole workspace, and of one submission. */
const WORKSPACE_READS = ['GET /v1/applications/submissions', 'GET /v1/applications/stats'] as const;
const SUBMISSION_READ = 'GET /v1/applications/submissions/{submissionId}';

const unauthenticated = (name: string, auth: CredentialAttack['auth']): CredentialAttack => ({
  name,
  auth,
  status: 401,
  code: 'unauthenticated',
});

function flipLastCase(secret: string): string {
  const last = secret.slice(-1);
  const flipped = last === last.toUpperCase() ? last.toLowerCase() : last.toUpperCase();
  return `${secret.slice(0, -1)}${flipped === last ? (last === '0' ? '1' : '0') : flipped}`;
}

/** Run against every API-key route. */
const API_KEY_ATTACKS: readonly CredentialAttack[] = [
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
  unauthenticated('a valid dashboard token', (w) => key(w.tokens.reviewer)),
  unauthenticated('an unsigned token (alg none)', (_w, f) => key(f.algNone)),
  {
    name: 'a key of an application that is not approved',
    auth: (w) => key(w.unapproved.keys.test.secret),
    status: 403,
    code: 'application_not_approved',
  },
];

/** Run against every dashboard-token route. */
const DASHBOARD_ATTACKS: readonly CredentialAttack[] = [
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
    byRoute: Object.fromEntries(WORKSPACE_READS.map((r) => [r, { status: 403, code: 'permission_denied' as const }])),
  },
];

/** Run against every dashboard-token route of an app configured with JWT_ISSUER and JWT_AUDIENCE. */
const ISSUER_AUDIENCE_ATTACKS: readonly CredentialAttack[] = [
  // Control: the right issuer and audience authenticate (the accepted submission is then final: 422; the reads
  // answer 200).
  {
    name: 'the configured issuer and audience',
    auth: (_w, f) => key(f.issuerAndAudience),
    status: 422,
    code: 'submission_finalized',
    byRoute: Object.fromEntries([...WORKSPACE_READS, SUBMISSION_READ].map((r) => [r, { status: 200 }])),
  },
  unauthenticated('another issuer', (_w, f) => key(f.wrongIssuer)),
  unauthenticated('another audience', (_w, f) => key(f.wrongAudience)),
  unauthenticated('no issuer', (_w, f) => key(f.withoutIssuer)),
  unauthenticated('no audience', (_w, f) => key(f.withoutAudience)),
  unauthenticated('a token valid without issuer and audience checks', (w) => key(w.tokens.reviewer)),
];

// ---------------------------------------------------------------------------------------------------------
// The authorization table: every served route, keyed `METHOD /path/{param}`
// ---------------------------------------------------------------------------------------------------------

interface Case {
  readonly name: string;
  /** What differs from the route's valid request. */
  readonly with: (w: World) => RequestParts;
  readonly status: number;
  /** Required from 400 on. */
  readonly code?: ErrorCode;
  /** More checks on a 2xx body. */
  readonly check?: (body: Record<string, unknown>, w: World) => void;
}

interface RouteCases {
  /** A request the legitimate caller makes successfully (the control case sends it as is). */
  readonly valid: (w: World) => RequestParts;
  readonly cases: readonly Case[];
}

type Data = { data: Record<string, unknown> };
const dataOf = (body: Record<string, unknown>) => (body as Data).data;

const CONTROL: Case = { name: 'control: the legitimate caller succeeds', with: () => ({}), status: 200 };

const notFound = (name: string, over: Case['with']): Case => ({ name, with: over, status: 404, code: 'not_found' });

function scopeCase(secret: (w: World) => string, scope: string): Case {
  return { name: `a key without ${scope}`, with: (w) => ({ auth: key(secret(w)) }), status: 403, code: 'insufficient_scope' };
}

const FEATURE_OFF: Case = {
  name: 'a key whose application has the activity feature off',
  with: (w) => ({ auth: key(w.featureOff.keys.test.secret) }),
  status: 403,
  code: 'feature_disabled',
};

const PUBLIC: RouteCases = {
  valid: () => ({ auth: null }),
  cases: [
    CONTROL,
    { name: 'a revoked key changes nothing', with: (w) => ({ auth: key(w.a.keys.revoked.secret) }), status: 200 },
    { name: 'a forged token changes nothing', with: () => ({ auth: key('eyJhbGciOiJub25lIn0.e30.') }), status: 200 },
  ],
};

/** The chat routes (staff/me and the summary): the guild header is a consistency check, never a selector. */
function chatCases(scope: string, scopeless: (w: World) => string, featureGated: boolean, extra: readonly Case[]): RouteCases {
  const chat = (guild: string, chatUserId: string | null | undefined) => ({
    'x-chat-guild-id': guild,
    'x-acting-chat-user-id': chatUserId ?? '',
  });
  return {
    valid: (w) => ({ auth: key(w.a.keys.test.secret), headers: chat(GUILD_ID, w.a.staff.alice.chatUserId) }),
    cases: [
      CONTROL,
      {
        name: "B's key with A's guild and A's chat user: 403 guild_mismatch",
        with: (w) => ({ auth: key(w.b.keys.test.secret) }),
        status: 403,
        code: 'guild_mismatch',
      },
      notFound("B's key with B's guild and A's chat user", (w) => ({
        auth: key(w.b.keys.test.secret),
        headers: chat(SECOND_GUILD_ID, w.a.staff.alice.chatUserId),
      })),
      notFound("A's key with A's guild and B's chat user", (w) => ({ headers: chat(GUILD_ID, w.b.staff.alice.chatUserId) })),
      {
        name: "A's key with B's guild and B's chat user: the guild never selects B",
        with: (w) => ({ headers: chat(SECOND_GUILD_ID, w.b.staff.alice.chatUserId) }),
        status: 403,
        code: 'guild_mismatch',
      },
      {
        name: 'X-Service-Workspace-Id naming B is ignored: the profile is A\'s',
        with: (w) => ({ headers: { 'x-service-workspace-id': w.b.ids.workspaceId } }),
        status: 200,
      },
      scopeCase(scopeless, scope),
      ...(featureGated ? [FEATURE_OFF] : []),
      ...extra,
    ],
  };
}

function shiftWriteCases(target: (w: World) => string, body: unknown): RouteCases {
  return {
    valid: (w) => ({ auth: key(w.a.keys.test.secret), path: { shiftId: target(w) }, body }),
    cases: [
      notFound("a key of workspace B on A's shift", (w) => ({ auth: key(w.b.keys.test.secret) })),
      notFound('a key of another application of the same workspace', (w) => ({ auth: key(w.app2.secret) })),
      notFound('the live key of the same application on a test shift', (w) => ({ auth: key(w.a.keys.live.secret) })),
      notFound('the test key on a live shift', (w) => ({ path: { shiftId: w.shifts.aLive } })),
      notFound("A's key on B's shift", (w) => ({ path: { shiftId: w.shifts.bTest } })),
      notFound('the test key on a completed live shift', (w) => ({ path: { shiftId: w.shifts.aCompletedLive } })),
      notFound('a shift id in another letter case that does not exist', () => ({ path: { shiftId: newId().toUpperCase() } })),
      scopeCase((w) => w.a.keys.readOnly.secret, 'activity:write'),
      FEATURE_OFF,
      CONTROL,
    ],
  };
}

type BatchResults = { results: { shiftId: string; shift?: unknown; error?: { code: string } }[] };

/** A batch heartbeat answers 200 with a result per shift: a shift the caller may not see is `not_found` there. */
function itemNotFound(name: string, over: Case['with']): Case {
  return {
    name,
    with: over,
    status: 200,
    check: (body) => {
      const { results } = dataOf(body) as unknown as BatchResults;
      expect(results.map((r) => r.error?.code)).toEqual(results.map(() => 'not_found'));
    },
  };
}

/** The batch heartbeat on A's test shift: another tenant's key, or A's key on another's shift, finds nothing. */
function batchHeartbeatCases(): RouteCases {
  return {
    valid: (w) => ({ auth: key(w.a.keys.test.secret), body: { serverId: 'srv-1', shiftIds: [w.shifts.aTest] } }),
    cases: [
      itemNotFound("a key of workspace B on A's shift", (w) => ({ auth: key(w.b.keys.test.secret) })),
      itemNotFound('a key of another application of the same workspace', (w) => ({ auth: key(w.app2.secret) })),
      itemNotFound('the live key of the same application on a test shift', (w) => ({ auth: key(w.a.keys.live.secret) })),
      itemNotFound("A's key on B's shift", (w) => ({ body: { serverId: 'srv-1', shiftIds: [w.shifts.bTest] } })),
      scopeCase((w) => w.a.keys.readOnly.secret, 'activity:write'),
      FEATURE_OFF,
      {
        ...CONTROL,
        check: (body, w) => {
          const { results } = dataOf(body) as unknown as BatchResults;
          expect(results).toMatchObject([{ shiftId: w.shifts.aTest, shift: { id: w.shifts.aTest } }]);
        },
      },
    ],
  };
}

/**
 * The server stop, on a server none of the world's shifts run on for the control (the other routes' controls
 * need A's shifts active). Workspace B's key on A's server stops only B's own shift there, never one of A's.
 */
function serverStopCases(): RouteCases {
  return {
    valid: (w) => ({ auth: key(w.a.keys.test.secret), path: { serverId: 'srv-idle' }, body: {} }),
    cases: [
      {
        name: "a key of workspace B on the server A's shifts run on stops none of A's",
        with: (w) => ({ auth: key(w.b.keys.test.secret), path: { serverId: 'srv-1' } }),
        status: 200,
        check: (body, w) => {
          const ids = (dataOf(body) as unknown as { shifts: { id: string }[] }).shifts.map((s) => s.id);
          for (const own of [w.shifts.aTest, w.shifts.aBob, w.shifts.aLive, w.shifts.aApp2]) expect(ids).not.toContain(own);
        },
      },
      scopeCase((w) => w.a.keys.readOnly.secret, 'activity:write'),
      FEATURE_OFF,
      {
        ...CONTROL,
        check: (body) => expect((dataOf(body) as unknown as { shifts: unknown[] }).shifts).toEqual([]),
      },
    ],
  };
}

const APPLICATIONS_OFF: Case = {
  name: 'a key whose application has the applications feature off',
  with: (w) => ({ auth: key(w.applicationsOff.keys.test.secret) }),
  status: 403,
  code: 'feature_disabled',
};

const formIds = (data: Record<string, unknown>) => (data.forms as Array<{ id: string }>).map((f) => f.id);
const submissionIdsOf = (data: Record<string, unknown>) => (data.submissions as Array<{ id: string }>).map((s) => s.id);

/** Review operations; `target` picks the submission of A the control acts on. */
function reviewCases(target: (w: World) => string, body: unknown): RouteCases {
  return {
    valid: (w) => ({ auth: key(w.tokens.reviewer), path: { submissionId: target(w) }, body }),
    cases: [
      notFound("a member of workspace B only, on A's submission", (w) => ({ auth: key(w.tokens.second) })),
      notFound("A's reviewer on B's submission", (w) => ({ path: { submissionId: w.submissions.b.submitted[0]! } })),
      notFound("a member of both workspaces selecting B, on A's submission", (w) => ({
        auth: key(w.tokens.multi),
        headers: { 'x-service-workspace-id': w.b.ids.workspaceId },
      })),
      {
        name: 'X-Service-Workspace-Id naming a workspace the caller is not a member of',
        with: (w) => ({ headers: { 'x-service-workspace-id': w.b.ids.workspaceId } }),
        status: 403,
        code: 'workspace_access_denied',
      },
      {
        name: 'X-Service-Workspace-Id naming no workspace at all',
        with: () => ({ headers: { 'x-service-workspace-id': newId() } }),
        status: 403,
        code: 'workspace_access_denied',
      },
      {
        name: 'a malformed X-Service-Workspace-Id',
        with: () => ({ headers: { 'x-service-workspace-id': "' or 1=1 --" } }),
        status: 400,
        code: 'validation_failed',
      },
      {
        name: "X-Chat-Guild-Id of workspace A gives a member of workspace B nothing",
        with: (w) => ({ auth: key(w.tokens.second), headers: { 'x-chat-guild-id': GUILD_ID } }),
        status: 404,
        code: 'not_found',
      },
      {
        name: 'a member of A without permissions',
        with: (w) => ({ auth: key(w.tokens.readonly) }),
        status: 403,
        code: 'permission_denied',
      },
      CONTROL,
    ],
  };
}

type StatsRow = { formId: string | null; submitted: number; underReview: number; accepted: number; rejected: number };

/**
 * The reviewers' reads of a whole workspace (queue, stats): `only` checks a 200 body holds workspace B's
 * submissions and nothing of A's; the control checks it holds nothing of B's.
 */
function reviewReadCases(only: { a: (body: Record<string, unknown>, w: World) => void; b: (body: Record<string, unknown>, w: World) => void }): RouteCases {
  return {
    valid: (w) => ({ auth: key(w.tokens.reviewer) }),
    cases: [
      { name: 'a member of workspace B only reads B, never A', with: (w) => ({ auth: key(w.tokens.second) }), status: 200, check: only.b },
      {
        name: 'a member of both workspaces selecting B reads only B',
        with: (w) => ({ auth: key(w.tokens.multi), headers: { 'x-service-workspace-id': w.b.ids.workspaceId } }),
        status: 200,
        check: only.b,
      },
      {
        name: 'X-Service-Workspace-Id naming a workspace the caller is not a member of',
        with: (w) => ({ headers: { 'x-service-workspace-id': w.b.ids.workspaceId } }),
        status: 403,
        code: 'workspace_access_denied',
      },
      {
        name: 'X-Service-Workspace-Id naming no workspace at all',
        with: () => ({ headers: { 'x-service-workspace-id': newId() } }),
        status: 403,
        code: 'workspace_access_denied',
      },
      {
        name: 'a malformed X-Service-Workspace-Id',
        with: () => ({ headers: { 'x-service-workspace-id': "' or 1=1 --" } }),
        status: 400,
        code: 'validation_failed',
      },
      {
        name: 'a member of A without permissions',
        with: (w) => ({ auth: key(w.tokens.readonly) }),
        status: 403,
        code: 'permission_denied',
      },
      { ...CONTROL, check: only.a },
    ],
  };
}

const queueIds = (body: Record<string, unknown>) => (dataOf(body).submissions as Array<{ id: string }>).map((s) => s.id);
const QUEUE_CASES = reviewReadCases({
  a: (body, w) =>
    expect(queueIds(body).filter((id) => [...w.submissions.b.submitted, w.applicantSubmissions.b].includes(id))).toEqual([]),
  b: (body, w) => expect(new Set(queueIds(body))).toEqual(new Set([...w.submissions.b.submitted, w.applicantSubmissions.b])),
});
const STATS_CASES = reviewReadCases({
  a: (body) => expect((dataOf(body).forms as StatsRow[]).length).toBeGreaterThan(0),
  b: (body, w) =>
    expect(dataOf(body).forms).toEqual([
      { formId: w.forms.b, formName: 'Moderator application', submitted: 1, underReview: 0, accepted: 0, rejected: 0 },
      { formId: null, formName: null, submitted: 2, underReview: 0, accepted: 0, rejected: 0 },
    ]),
});

function onlyIds(ids: (w: World) => string[], list: (data: Record<string, unknown>) => string[]) {
  return (body: Record<string, unknown>, w: World) => expect(new Set(list(dataOf(body)))).toEqual(new Set(ids(w)));
}

const staffIds = (data: Record<string, unknown>) => (data.entries as Array<{ staffId: string }>).map((e) => e.staffId);
const shiftIds = (data: Record<string, unknown>) => (data.shifts as Array<{ id: string }>).map((s) => s.id);
const aliceSeconds = (w: World) => (data: Record<string, unknown>) =>
  (data.entries as Array<{ staffId: string; totalSeconds: number }>).find((e) => e.staffId === w.a.ids.staff.alice)?.totalSeconds;

const AUTHORIZATION_CASES: Readonly<Record<string, RouteCases>> = {
  'GET /health': PUBLIC,
  'GET /version': PUBLIC,
  'GET /openapi.json': PUBLIC,
  'GET /ready': PUBLIC,
  'GET /metrics': PUBLIC,

  'GET /v1/integration': {
    valid: (w) => ({ auth: key(w.a.keys.test.secret) }),
    cases: [
      CONTROL,
      {
        name: "B's key sees workspace B, whatever X-Service-Workspace-Id says",
        with: (w) => ({ auth: key(w.b.keys.test.secret), headers: { 'x-service-workspace-id': w.a.ids.workspaceId } }),
        status: 200,
        check: (body, w) => expect(dataOf(body).workspace).toMatchObject({ id: w.b.ids.workspaceId }),
      },
      {
        name: "B's key with A's guild",
        with: (w) => ({ auth: key(w.b.keys.test.secret), headers: { 'x-chat-guild-id': GUILD_ID } }),
        status: 403,
        code: 'guild_mismatch',
      },
      {
        name: "A's key with B's guild",
        with: () => ({ headers: { 'x-chat-guild-id': SECOND_GUILD_ID } }),
        status: 403,
        code: 'guild_mismatch',
      },
      {
        name: 'the live key reports the live environment',
        with: (w) => ({ auth: key(w.a.keys.live.secret) }),
        status: 200,
        check: (body) => expect(dataOf(body).environment).toBe('live'),
      },
      { name: 'a key with any one scope may call it', with: (w) => ({ auth: key(w.a.keys.staffOnly.secret) }), status: 200 },
      FEATURE_OFF,
    ],
  },

  'GET /v1/staff/me': chatCases('staff:read', (w) => w.a.keys.readOnly.secret, false, []),

  'GET /v1/activity/me/summary': chatCases('activity:read', (w) => w.a.keys.staffOnly.secret, true, [
    {
      name: 'the test key counts test shifts only (30 of alice\'s 90 minutes today)',
      with: () => ({}),
      status: 200,
      check: (body) => expect(dataOf(body).todayMinutes).toBe(30),
    },
    {
      name: 'the live key counts live shifts only (60 minutes)',
      with: (w) => ({ auth: key(w.a.keys.live.secret) }),
      status: 200,
      check: (body) => expect(dataOf(body).todayMinutes).toBe(60),
    },
  ]),

  'GET /v1/activity/staff/{gameUserId}': {
    valid: (w) => ({ auth: key(w.a.keys.test.secret), path: { gameUserId: w.a.staff.alice.gameUserId } }),
    cases: [
      CONTROL,
      notFound("A's key on a game user of workspace B", (w) => ({ path: { gameUserId: w.b.staff.alice.gameUserId } })),
      notFound("B's key on a game user of workspace A", (w) => ({ auth: key(w.b.keys.test.secret) })),
      notFound('X-Service-Workspace-Id naming B does not select it', (w) => ({
        path: { gameUserId: w.b.staff.alice.gameUserId },
        headers: { 'x-service-workspace-id': w.b.ids.workspaceId },
      })),
      {
        name: 'the test key counts test shifts only',
        with: () => ({}),
        status: 200,
        check: (body) => expect(dataOf(body)).toMatchObject({ totalSeconds: 1800, completedShifts: 1 }),
      },
      {
        name: 'the live key counts live shifts only',
        with: (w) => ({ auth: key(w.a.keys.live.secret) }),
        status: 200,
        check: (body) => expect(dataOf(body)).toMatchObject({ totalSeconds: 3600, completedShifts: 1 }),
      },
      scopeCase((w) => w.a.keys.staffOnly.secret, 'activity:read'),
      FEATURE_OFF,
    ],
  },

  'GET /v1/activity/leaderboard': {
    valid: (w) => ({ auth: key(w.a.keys.test.secret) }),
    cases: [
      CONTROL,
      {
        name: "A's key ranks A's active staff only, whatever X-Service-Workspace-Id says",
        with: (w) => ({ headers: { 'x-service-workspace-id': w.b.ids.workspaceId } }),
        status: 200,
        check: onlyIds((w) => [w.a.ids.staff.alice, w.a.ids.staff.bob], staffIds),
      },
      {
        name: "B's key ranks B's staff only",
        with: (w) => ({ auth: key(w.b.keys.test.secret), query: 'includeInactive=true' }),
        status: 200,
        check: onlyIds((w) => Object.values(w.b.ids.staff), staffIds),
      },
      {
        name: "a department of workspace B gives A's key an empty page",
        with: (w) => ({ query: `departmentId=${w.b.ids.departments.moderation}` }),
        status: 200,
        check: (body) => expect(dataOf(body).entries).toEqual([]),
      },
      {
        name: 'the test key counts test shifts only',
        with: () => ({}),
        status: 200,
        check: (body, w) => expect(aliceSeconds(w)(dataOf(body))).toBe(1800),
      },
      {
        name: 'the live key counts live shifts only',
        with: (w) => ({ auth: key(w.a.keys.live.secret) }),
        status: 200,
        check: (body, w) => expect(aliceSeconds(w)(dataOf(body))).toBe(3600),
      },
      scopeCase((w) => w.a.keys.writeOnly.secret, 'activity:read'),
      FEATURE_OFF,
    ],
  },

  'GET /v1/activity/shifts/active': {
    valid: (w) => ({ auth: key(w.a.keys.test.secret) }),
    cases: [
      CONTROL,
      {
        name: "the test key lists A's test shifts of every application, no live ones",
        with: () => ({}),
        status: 200,
        check: onlyIds((w) => [w.shifts.aTest, w.shifts.aBob, w.shifts.aApp2], shiftIds),
      },
      {
        name: "the live key lists A's live shifts only",
        with: (w) => ({ auth: key(w.a.keys.live.secret) }),
        status: 200,
        check: onlyIds((w) => [w.shifts.aLive], shiftIds),
      },
      {
        name: "B's key lists B's shifts only",
        with: (w) => ({ auth: key(w.b.keys.test.secret), headers: { 'x-service-workspace-id': w.a.ids.workspaceId } }),
        status: 200,
        check: onlyIds((w) => [w.shifts.bTest], shiftIds),
      },
      scopeCase((w) => w.a.keys.writeOnly.secret, 'activity:read'),
      FEATURE_OFF,
    ],
  },

  'GET /v1/activity/shifts/{shiftId}': {
    valid: (w) => ({ auth: key(w.a.keys.test.secret), path: { shiftId: w.shifts.aTest } }),
    cases: [
      CONTROL,
      notFound("a key of workspace B on A's shift", (w) => ({ auth: key(w.b.keys.test.secret) })),
      notFound("A's key on B's shift", (w) => ({ path: { shiftId: w.shifts.bTest } })),
      notFound('the live key on a test shift', (w) => ({ auth: key(w.a.keys.live.secret) })),
      notFound('the test key on a live shift', (w) => ({ path: { shiftId: w.shifts.aLive } })),
      notFound('the test key on a completed live shift', (w) => ({ path: { shiftId: w.shifts.aCompletedLive } })),
      {
        name: 'another application of the same workspace and environment may read it (reads are workspace-wide)',
        with: (w) => ({ auth: key(w.app2.secret) }),
        status: 200,
        check: (body, w) => expect((dataOf(body).shift as { id: string }).id).toBe(w.shifts.aTest),
      },
      scopeCase((w) => w.a.keys.writeOnly.secret, 'activity:read'),
      FEATURE_OFF,
    ],
  },

  'POST /v1/activity/shifts/start': {
    valid: (w) => ({
      auth: key(w.a.keys.test.secret),
      body: { gameUserId: w.a.staff.alice.gameUserId, universeId: UNIVERSE_ID, placeId: '7', serverId: 'srv-1' },
    }),
    cases: [
      notFound("A's key with a game user of workspace B", (w) => ({
        body: { gameUserId: w.b.staff.alice.gameUserId, universeId: UNIVERSE_ID, placeId: '7', serverId: 'srv-1' },
      })),
      notFound("B's key with a game user of workspace A", (w) => ({ auth: key(w.b.keys.test.secret) })),
      notFound('X-Service-Workspace-Id naming B does not select it', (w) => ({
        headers: { 'x-service-workspace-id': w.b.ids.workspaceId },
        body: { gameUserId: w.b.staff.alice.gameUserId, universeId: UNIVERSE_ID, placeId: '7', serverId: 'srv-1' },
      })),
      scopeCase((w) => w.a.keys.readOnly.secret, 'activity:write'),
      FEATURE_OFF,
      {
        name: "control: alice's active shift of this application and environment is returned, not another's",
        with: () => ({}),
        status: 200,
        check: (body, w) => expect(dataOf(body)).toMatchObject({ existing: true, shift: { id: w.shifts.aTest } }),
      },
    ],
  },
  'POST /v1/activity/shifts/{shiftId}/heartbeat': shiftWriteCases((w) => w.shifts.aTest, { serverId: 'srv-1' }),
  'POST /v1/activity/shifts/{shiftId}/stop': shiftWriteCases((w) => w.shifts.aBob, { reason: 'manual' }),

  'POST /v1/activity/shifts/heartbeats': batchHeartbeatCases(),
  'POST /v1/activity/servers/{serverId}/stop': serverStopCases(),

  'GET /v1/applications/forms': {
    valid: (w) => ({ auth: key(w.a.keys.test.secret) }),
    cases: [
      {
        ...CONTROL,
        name: "control: A's key lists A's forms only, whatever X-Service-Workspace-Id says",
        with: (w) => ({ headers: { 'x-service-workspace-id': w.b.ids.workspaceId } }),
        check: onlyIds((w) => [w.forms.a], formIds),
      },
      {
        name: "B's key lists B's forms only",
        with: (w) => ({ auth: key(w.b.keys.test.secret) }),
        status: 200,
        check: onlyIds((w) => [w.forms.b], formIds),
      },
      scopeCase((w) => w.a.keys.staffOnly.secret, 'applications:read'),
      APPLICATIONS_OFF,
    ],
  },

  'GET /v1/applications/forms/{formId}': {
    valid: (w) => ({ auth: key(w.a.keys.test.secret), path: { formId: w.forms.a } }),
    cases: [
      CONTROL,
      notFound("A's key on B's form", (w) => ({ path: { formId: w.forms.b } })),
      notFound("B's key on A's form", (w) => ({ auth: key(w.b.keys.test.secret) })),
      notFound('X-Service-Workspace-Id naming B does not select it', (w) => ({
        path: { formId: w.forms.b },
        headers: { 'x-service-workspace-id': w.b.ids.workspaceId },
      })),
      scopeCase((w) => w.a.keys.staffOnly.secret, 'applications:read'),
      APPLICATIONS_OFF,
    ],
  },

  'POST /v1/applications/forms/{formId}/submissions': {
    valid: (w) => ({
      auth: key(w.a.keys.test.secret),
      path: { formId: w.forms.a },
      body: { applicant: { gameUserId: w.applicantGameUserId }, answers: { why: 'To help.' } },
    }),
    cases: [
      notFound("A's key on B's form", (w) => ({ path: { formId: w.forms.b } })),
      notFound("B's key on A's form", (w) => ({ auth: key(w.b.keys.test.secret) })),
      notFound('X-Service-Workspace-Id naming B does not select it', (w) => ({
        path: { formId: w.forms.b },
        headers: { 'x-service-workspace-id': w.b.ids.workspaceId },
      })),
      scopeCase((w) => w.a.keys.staffOnly.secret, 'applications:write'),
      APPLICATIONS_OFF,
      {
        name: "the live key meets the applicant's pending live submission",
        with: (w) => ({ auth: key(w.a.keys.live.secret) }),
        status: 409,
        code: 'submission_pending',
      },
      {
        ...CONTROL,
        name: 'control: the test key submits to the test queue, apart from the live one',
        check: (body) => expect(dataOf(body).submission).toMatchObject({ status: 'submitted', environment: 'test' }),
      },
    ],
  },

  'GET /v1/applications/applicants/{gameUserId}/submissions': {
    valid: (w) => ({ auth: key(w.a.keys.live.secret), path: { gameUserId: w.applicantGameUserId } }),
    cases: [
      {
        ...CONTROL,
        name: "control: A's live key lists the applicant's submissions of workspace A only",
        check: (body, w) => expect(submissionIdsOf(dataOf(body))).toEqual([w.applicantSubmissions.a]),
      },
      {
        name: "B's key lists workspace B's only",
        with: (w) => ({ auth: key(w.b.keys.live.secret) }),
        status: 200,
        check: (body, w) => expect(submissionIdsOf(dataOf(body))).toEqual([w.applicantSubmissions.b]),
      },
      {
        name: 'the test key sees no live submission, whatever X-Service-Workspace-Id says',
        with: (w) => ({ auth: key(w.a.keys.test.secret), headers: { 'x-service-workspace-id': w.b.ids.workspaceId } }),
        status: 200,
        check: (body, w) => {
          const ids = submissionIdsOf(dataOf(body));
          expect(ids).not.toContain(w.applicantSubmissions.a);
          expect(ids).not.toContain(w.applicantSubmissions.b);
        },
      },
      scopeCase((w) => w.a.keys.staffOnly.secret, 'applications:read'),
      APPLICATIONS_OFF,
    ],
  },

  'POST /v1/applications/submissions/{submissionId}/accept': reviewCases((w) => w.submissions.a.submitted[1]!, {}),
  'POST /v1/applications/submissions/{submissionId}/mark-under-review': reviewCases((w) => w.submissions.a.submitted[0]!, {}),
  'POST /v1/applications/submissions/{submissionId}/reject': reviewCases((w) => w.submissions.a.submitted[2]!, {}),
  'PATCH /v1/applications/submissions/{submissionId}/review': reviewCases((w) => w.submissions.a.underReview, { score: 50 }),
  'GET /v1/applications/submissions': QUEUE_CASES,
  'GET /v1/applications/submissions/{submissionId}': reviewCases((w) => w.submissions.a.accepted, undefined),
  'GET /v1/applications/stats': STATS_CASES,
};

// ---------------------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------------------

describe('authorization matrix', () => {
  it('every served route has an authorization case table, and every table a served route', () => {
    const served = ROUTES.map((r) => r.key);
    expect(served.filter((route) => !(route in AUTHORIZATION_CASES)), 'served routes without cases').toEqual([]);
    expect(Object.keys(AUTHORIZATION_CASES).filter((route) => !served.includes(route)), 'cases of no served route').toEqual([]);
  });

  it('every authenticated route has a control, a cross-tenant case and a denied case', () => {
    for (const route of ROUTES.filter((r) => r.security !== 'none')) {
      const cases = AUTHORIZATION_CASES[route.key]?.cases ?? [];
      expect(cases.some((c) => c.status === 200), `${route.key}: control`).toBe(true);
      expect(cases.some((c) => /\bB\b|workspace B/.test(c.name)), `${route.key}: another workspace`).toBe(true);
      expect(cases.some((c) => c.status === 403), `${route.key}: a denied case`).toBe(true);
    }
  });
});

describe.each(STORE_KINDS)('hostile callers (%s)', (kind) => {
  let ctx: TestContext;
  let world: World;
  let forged: Forged;
  let issuerApp: FastifyInstance;
  let issuerInject: Inject;

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    world = await seedWorld(ctx);
    forged = await forgedTokens(world);
    // A second instance on the same database that checks issuer and audience.
    issuerApp = await buildApp({
      config: testConfig({ JWT_ISSUER: ISSUER, JWT_AUDIENCE: AUDIENCE }),
      store: ctx.store,
      clock: ctx.clock,
      logger: false,
    });
    await issuerApp.ready();
    issuerInject = await checkedInject(issuerApp);
  });
  afterAll(async () => {
    await issuerApp?.close();
    await ctx?.close();
  });

  /** Sends the request and checks status, code, the envelope and, for a rejection, an unchanged database. */
  async function expectOutcome(
    inject: Inject,
    request: InjectOptions,
    expected: { status: number; code?: ErrorCode | undefined },
  ): Promise<LightMyRequestResponse> {
    const stats = (tally[kind] ??= { cases: 0, byStatus: {} });
    stats.cases += 1;
    stats.byStatus[expected.status] = (stats.byStatus[expected.status] ?? 0) + 1;
    const before = await businessSnapshot(ctx.store.db);
    const res = await inject(request);
    // Every answer is JSON except the metrics exposition (text/plain).
    const json = String(res.headers['content-type'] ?? '').startsWith('application/json');
    const body = (json ? res.json() : {}) as { error?: { code?: string; requestId?: string } };
    expect(res.statusCode, res.body.slice(0, 300)).toBe(expected.status);
    if (expected.status >= 400) {
      expect(body.error?.code).toBe(expected.code);
      expect(body.error?.requestId).toBe(res.headers['x-request-id']);
      expect(changedTables(before, await businessSnapshot(ctx.store.db)), 'tables changed by a rejected request').toEqual([]);
    }
    return res;
  }

  const routeOf = (routeKey: string) => ROUTES.find((r) => r.key === routeKey)!;
  const validOf = (routeKey: string, w: World) => AUTHORIZATION_CASES[routeKey]!.valid(w);
  const attacks = (security: ServedRoute['security'], list: readonly CredentialAttack[]) =>
    ROUTES.filter((r) => r.security === security && r.key in AUTHORIZATION_CASES).flatMap((route) =>
      list.map((attack) => [route.key, attack.name, attack] as const),
    );

  describe('credentials on every API-key route', () => {
    it.each(attacks('apiKey', API_KEY_ATTACKS))('%s with %s', async (routeKey, _name, attack) => {
      const route = routeOf(routeKey);
      await expectOutcome(ctx.inject, build(route, merge(validOf(routeKey, world), { auth: attack.auth(world, forged) })), attack);
    });
  });

  describe('credentials on every dashboard route', () => {
    it.each(attacks('dashboardToken', DASHBOARD_ATTACKS))('%s with %s', async (routeKey, _name, attack) => {
      const route = routeOf(routeKey);
      const parts = merge(validOf(routeKey, world), { auth: attack.auth(world, forged) });
      await expectOutcome(ctx.inject, build(route, parts), outcomeOn(attack, routeKey));
    });
  });

  describe('issuer and audience, when JWT_ISSUER and JWT_AUDIENCE are configured', () => {
    it.each(attacks('dashboardToken', ISSUER_AUDIENCE_ATTACKS))('%s with %s', async (routeKey, _name, attack) => {
      const route = routeOf(routeKey);
      const parts = merge(validOf(routeKey, world), {
        auth: attack.auth(world, forged),
        path: { submissionId: world.submissions.a.accepted },
      });
      await expectOutcome(issuerInject, build(route, parts), outcomeOn(attack, routeKey));
    });
  });

  describe('an Idempotency-Key never replays another principal\'s result', () => {
    const start = (secret: string, idempotencyKey: string, gameUserId: string) =>
      build(routeOf('POST /v1/activity/shifts/start'), {
        auth: key(secret),
        headers: { 'idempotency-key': idempotencyKey },
        body: { gameUserId, universeId: UNIVERSE_ID, placeId: '7', serverId: 'srv-1' },
      });

    it("workspace B's key with A's key and request gets its own answer (404), not A's stored 200", async () => {
      const idempotencyKey = `shared-${newId()}`;
      const first = await ctx.inject(start(world.a.keys.test.secret, idempotencyKey, world.a.staff.alice.gameUserId));
      expect(first.statusCode).toBe(200);
      const res = await expectOutcome(ctx.inject, start(world.b.keys.test.secret, idempotencyKey, world.a.staff.alice.gameUserId), {
        status: 404,
        code: 'not_found',
      });
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    });

    it("the live key with the test key's Idempotency-Key gets the live shift, not the stored test one", async () => {
      const idempotencyKey = `shared-${newId()}`;
      await ctx.inject(start(world.a.keys.test.secret, idempotencyKey, world.a.staff.alice.gameUserId));
      const res = await ctx.inject(start(world.a.keys.live.secret, idempotencyKey, world.a.staff.alice.gameUserId));
      expect(res.statusCode).toBe(200);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect(res.json().data.shift.id).toBe(world.shifts.aLive);
    });

    it("a member of B with the reviewer's Idempotency-Key on A's submission gets 404, not the stored 422", async () => {
      const idempotencyKey = `shared-${newId()}`;
      const accept = (token: string) =>
        build(routeOf('POST /v1/applications/submissions/{submissionId}/accept'), {
          auth: key(token),
          path: { submissionId: world.submissions.a.accepted },
          headers: { 'idempotency-key': idempotencyKey },
        });
      expect((await ctx.inject(accept(world.tokens.reviewer))).statusCode).toBe(422);
      const res = await expectOutcome(ctx.inject, accept(world.tokens.second), { status: 404, code: 'not_found' });
      expect(res.headers['idempotent-replayed']).toBeUndefined();
    });
  });

  describe.each(ROUTES.map((r) => r.key))('%s', (routeKey) => {
    it.each((AUTHORIZATION_CASES[routeKey]?.cases ?? []).map((c) => [c.name, c] as const))('%s', async (_name, c) => {
      const route = routeOf(routeKey);
      const request = build(route, merge(validOf(routeKey, world), c.with(world)));
      const res = await expectOutcome(ctx.inject, request, c);
      if (c.check) c.check(res.json() as Record<string, unknown>, world);
    });
  });
});

afterAll(() => {
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(`${RESULTS_DIR}hostile.json`, `${JSON.stringify({ routes: ROUTES.length, stores: tally }, null, 2)}\n`);
});
