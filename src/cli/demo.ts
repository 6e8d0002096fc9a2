import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { SCOPES } from '../shared/actor.ts';
import { systemClock } from '../shared/clock.ts';
import { loadConfig, type ConfigOverrides } from '../shared/config.ts';
import { newId } from '../shared/ids.ts';
import { applyProvisioning } from '../provisioning/apply.ts';
import { createConsoleService } from '../features/console/service.ts';
import { catchSignals, startServer } from '../server.ts';

export const DEMO_DATABASE_URL = 'sqlite:./data/demo.db';

const DEMO = {
  workspaceId: '8a0f3f4e-1d7b-4c55-9a51-0d5e2b7c0001',
  departmentId: '8a0f3f4e-1d7b-4c55-9a51-0d5e2b7c0002',
  staffId: '8a0f3f4e-1d7b-4c55-9a51-0d5e2b7c0003',
  applicationId: '8a0f3f4e-1d7b-4c55-9a51-0d5e2b7c0004',
  submissionId: '8a0f3f4e-1d7b-4c55-9a51-0d5e2b7c0005',
  formId: '8a0f3f4e-1d7b-4c55-9a51-0d5e2b7c0006',
  userId: 'demo-reviewer',
  managerId: 'demo-manager',
  guildId: '100000000000000001',
  chatUserId: '200000000000000001',
  /** The reviewer's chat account: the bot's console sign-in link finds the reviewer by it. */
  reviewerChatUserId: '200000000000000003',
  gameUserId: '1001',
  universeId: '4242',
};

function demoDocument(keyId: string) {
  return {
    workspaces: [
      {
        id: DEMO.workspaceId,
        name: 'Demo Community',
        slug: 'demo-community',
        timezone: 'UTC',
        settings: { createStaffProfileOnAccept: true, weeklyRequiredMinutes: 120 },
        chat: { guildId: DEMO.guildId, status: 'connected', connectedAt: '2026-01-01T00:00:00Z' },
        departments: [{ id: DEMO.departmentId, name: 'Moderation', weeklyRequiredMinutes: 180 }],
        members: [
          {
            userId: DEMO.userId,
            permissions: ['applications.review', 'applications.decide', 'staff.create'],
            chatUserId: DEMO.reviewerChatUserId,
          },
          // Decides on time off (docs/TIME-OFF.md), and nothing else.
          { userId: DEMO.managerId, permissions: ['notices.decide'] },
        ],
        staff: [
          {
            id: DEMO.staffId,
            displayName: 'Alice',
            gameUserId: DEMO.gameUserId,
            gameUsername: 'alice',
            chatUserId: DEMO.chatUserId,
            departmentId: DEMO.departmentId,
            rank: 'Moderator',
            status: 'active',
          },
        ],
        applications: [
          {
            id: DEMO.applicationId,
            name: 'Demo game',
            approved: true,
            allowedUniverseIds: [DEMO.universeId],
            features: { activity: true, applications: true },
            keys: [{ id: keyId, environment: 'test', scopes: [...SCOPES] }],
          },
        ],
        forms: [
          {
            id: DEMO.formId,
            name: 'Moderator application',
            slug: 'moderator',
            status: 'open' as const,
            cooldownDays: 14,
            questions: [
              { id: 'why', label: 'Why do you want to join?', type: 'long_text' as const, required: true },
              { id: 'age', label: 'How old are you?', type: 'number' as const, required: true, min: 13 },
              { id: 'tz', label: 'Time zone', type: 'choice' as const, options: ['EU', 'NA', 'Asia'] },
              { id: 'rules', label: 'Have you read the rules?', type: 'boolean' as const, required: true },
            ],
          },
        ],
        submissions: [
          {
            id: DEMO.submissionId,
            status: 'submitted',
            score: null,
            reviewerNotes: null,
            applicant: { gameUserId: '2001', gameUsername: 'bob', displayName: 'Bob', chatUserId: '200000000000000002' },
            answers: { why: 'I want to help the community.' },
          },
        ],
      },
    ],
  };
}

const HOUR_MS = 3_600_000;

/**
 * An hour of time off a day after `now` (to the minute): a notice the bot may ask for, which a run of the demo an
 * hour later on the same database does not overlap (docs/TIME-OFF.md).
 */
function demoNotice(now: number): string {
  const start = Math.floor(now / 60_000) * 60_000 + 24 * HOUR_MS;
  const notice = { startsAt: new Date(start).toISOString(), endsAt: new Date(start + HOUR_MS).toISOString(), reason: 'Dentist' };
  return JSON.stringify(notice);
}

function curlExamples({ base, apiKey, token, managerToken, now }: BannerValues): string {
  const key = `-H 'Authorization: Bearer ${apiKey}'`;
  const bearer = `-H 'Authorization: Bearer ${token}'`;
  const chat = `-H 'X-Chat-Guild-Id: ${DEMO.guildId}' -H 'X-Acting-Chat-User-Id: ${DEMO.chatUserId}'`;
  return [
    `curl -s ${base}/health`,
    `curl -s ${base}/v1/integration ${key}`,
    `curl -s ${base}/v1/staff/me ${key} -H 'X-Chat-Guild-Id: ${DEMO.guildId}' -H 'X-Acting-Chat-User-Id: ${DEMO.chatUserId}'`,
    `curl -s -X POST ${base}/v1/activity/shifts/start ${key} -H 'Content-Type: application/json' -H "Idempotency-Key: $(date +%s%N)" ` +
      `-d '{"gameUserId":"${DEMO.gameUserId}","universeId":"${DEMO.universeId}","placeId":"1","serverId":"demo-server-1"}'`,
    `curl -s ${base}/v1/activity/leaderboard ${key}`,
    `curl -s ${base}/v1/applications/forms ${key}`,
    `curl -s ${base}/v1/applications/forms/${DEMO.formId} ${key}`,
    // Submitted with the demo's test key, so the application lands in the queue's test environment.
    `curl -s -X POST ${base}/v1/applications/forms/${DEMO.formId}/submissions ${key} -H 'Content-Type: application/json' ` +
      `-H "Idempotency-Key: $(date +%s%N)" ` +
      `-d '{"applicant":{"gameUserId":"3001","gameUsername":"carol"},"answers":{"why":"I like helping.","age":17,"tz":"EU","rules":true}}'`,
    `curl -s '${base}/v1/applications/submissions?environment=test' ${bearer}`,
    `curl -s -X POST ${base}/v1/applications/submissions/${DEMO.submissionId}/mark-under-review ` +
      `${bearer} -H 'Idempotency-Key: demo-review-1'`,
    // Alice asks for time off through the bot's key; the manager finds it among the test environment's pending notices.
    `curl -s -X POST ${base}/v1/staff/me/inactivity-notices ${key} ${chat} -H 'Content-Type: application/json' ` +
      `-H "Idempotency-Key: $(date +%s%N)" -d '${demoNotice(now)}'`,
    `curl -s '${base}/v1/staff/inactivity-notices?environment=test' -H 'Authorization: Bearer ${managerToken}'`,
    // The chat bot's /review: a one-time console sign-in link for the reviewer, found by their chat account.
    `curl -s -X POST ${base}/v1/console/sign-in-links ${key} ` +
      `-H 'X-Chat-Guild-Id: ${DEMO.guildId}' -H 'X-Acting-Chat-User-Id: ${DEMO.reviewerChatUserId}'`,
  ].join('\n');
}

interface BannerValues {
  readonly base: string;
  readonly databaseUrl: string;
  readonly apiKey: string;
  readonly token: string;
  /** The manager's dashboard token (`notices.decide`). */
  readonly managerToken: string;
  /** A one-time console sign-in link for the reviewer (10 minutes). */
  readonly signInLink: string;
  /** When the banner is printed (ms since the epoch): the printed notice starts a day later. */
  readonly now: number;
}

/** What a person needs to try the demo, once, after the server listens. */
export function banner(values: BannerValues): string {
  const { base, databaseUrl, apiKey, token, managerToken, signInLink } = values;
  const title = 'workspace-gateway demo';
  const rule = '='.repeat(72);
  const row = (label: string, value: string) => `  ${label.padEnd(28)}${value}`;
  return [
    '',
    rule,
    `  ${title} is serving at ${base}`,
    rule,
    row('Database:', databaseUrl),
    row('OpenAPI document:', `${base}/openapi.json`),
    row('Health / readiness:', `${base}/health  ${base}/ready`),
    row('Metrics (Prometheus):', `${base}/metrics`),
    '',
    row('Test API key (shown once):', apiKey),
    row('Dashboard token (24 h):', token),
    row('Manager token (24 h):', managerToken),
    row('Reviewer console (10 min):', signInLink),
    '',
    '  Try:',
    ...curlExamples(values)
      .split('\n')
      .map((line) => `    ${line}`),
    '',
    '  Press Ctrl+C to stop.',
    rule,
    '',
  ].join('\n');
}

/** Provisions a demo workspace (a new test key each run), prints credentials and examples, then serves. */
export async function runDemo(overrides: ConfigOverrides): Promise<number> {
  const jwtSecret = process.env.JWT_SECRET ?? randomBytes(32).toString('base64url');
  const config = loadConfig(
    { ...process.env, JWT_SECRET: jwtSecret, GATEWAY_ENV: process.env.GATEWAY_ENV ?? 'demo' },
    { ...overrides, databaseUrl: overrides.databaseUrl ?? process.env.DATABASE_URL ?? DEMO_DATABASE_URL },
  );
  const signals = catchSignals();
  const server = await startServer(config);
  try {
    const result = await applyProvisioning(server.store.db, demoDocument(newId()), systemClock);
    const apiKey = result.keys[0]?.secret;
    if (!apiKey) throw new Error('demo provisioning returned no key');
    const sign = (userId: string) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime('24h')
        .sign(new TextEncoder().encode(jwtSecret));
    const [token, managerToken] = await Promise.all([sign(DEMO.userId), sign(DEMO.managerId)]);
    const base = server.address.replace('0.0.0.0', '127.0.0.1');
    const now = systemClock.now();
    const consoleSignIn = createConsoleService({ store: server.store, clock: systemClock, config });
    const signInLink = (await consoleSignIn.linkForUser(DEMO.userId, config.publicBaseUrl ?? base)).url;
    process.stdout.write(banner({ base, databaseUrl: config.databaseUrl, apiKey, token, managerToken, signInLink, now }));
  } catch (error) {
    await server.stop();
    throw error;
  }
  await signals.stopOn(server);
  return 0;
}
