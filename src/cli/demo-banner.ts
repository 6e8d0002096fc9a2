// What the demo prints once it serves: where things are, the credentials, the console links, and commands to try,
// each with one line saying who is calling and what it shows.
import { DEMO, DEMO_CREDENTIALS_HOURS } from './demo-document.ts';

export interface BannerValues {
  readonly base: string;
  readonly databaseUrl: string;
  /** The options that point `console-link` at this demo (its database and port). */
  readonly linkOptions: string;
  readonly apiKey: string;
  /** The reviewer's dashboard token. */
  readonly token: string;
  /** The manager's dashboard token (`notices.decide`). */
  readonly managerToken: string;
  /** One-time console sign-in links (10 minutes). */
  readonly reviewerLink: string;
  readonly managerLink: string;
  /** This run's sample application, sent through the form: the printed review marks it. */
  readonly sampleSubmissionId: string;
  /** Makes this run's printed applicant new to the form (its cooldown is per applicant). */
  readonly run: string;
  /** Alice's printed time off: free of her earlier notices. */
  readonly notice: { readonly startsAt: string; readonly endsAt: string };
}

/** A printed command: a line explaining it, then the command. */
type Example = readonly [explanation: string, command: string];

function examples(values: BannerValues): Example[] {
  const { base, apiKey, token, managerToken, sampleSubmissionId, run, notice } = values;
  const key = `-H 'Authorization: Bearer ${apiKey}'`;
  const bearer = `-H 'Authorization: Bearer ${token}'`;
  const chat = `-H 'X-Chat-Guild-Id: ${DEMO.guildId}' -H 'X-Acting-Chat-User-Id: ${DEMO.chatUserId}'`;
  const fresh = `-H "Idempotency-Key: $(date +%s%N)"`;
  const json = `-H 'Content-Type: application/json'`;
  return [
    ['Anyone: is the gateway up?', `curl -s ${base}/health`],
    ['The game (its test key): which workspace and environment the key is for', `curl -s ${base}/v1/integration ${key}`],
    ['The chat bot, for Alice on chat: her staff profile', `curl -s ${base}/v1/staff/me ${key} ${chat}`],
    [
      'The game server: Alice starts a shift (a fresh Idempotency-Key each paste: a write is done once per key)',
      `curl -s -X POST ${base}/v1/activity/shifts/start ${key} ${json} ${fresh} ` +
        `-d '{"gameUserId":"${DEMO.gameUserId}","universeId":"${DEMO.universeId}","placeId":"1","serverId":"demo-server-1"}'`,
    ],
    ['The game: shifts under way now (Dana\'s is kept alive by the demo\'s heartbeats)', `curl -s ${base}/v1/activity/shifts/active ${key}`],
    ['The game: this week\'s leaderboard, from the week of shifts the demo provisioned', `curl -s ${base}/v1/activity/leaderboard ${key}`],
    ['The game: the open application forms', `curl -s ${base}/v1/applications/forms ${key}`],
    ['The game: one form with its questions', `curl -s ${base}/v1/applications/forms/${DEMO.formId} ${key}`],
    [
      'The game: Carol applies; a test key\'s submission lands in the test environment',
      `curl -s -X POST ${base}/v1/applications/forms/${DEMO.formId}/submissions ${key} ${json} ${fresh} ` +
        `-d '{"applicant":{"gameUserId":"3${run}","gameUsername":"carol"},"answers":{"why":"I like helping.","age":17,"tz":"EU","rules":true}}'`,
    ],
    [
      'The reviewer (dashboard token): the queue of the test environment, where test keys\' submissions land (lists default to live)',
      `curl -s '${base}/v1/applications/submissions?environment=test' ${bearer}`,
    ],
    [
      'The reviewer: marks Bob\'s sample application (sent through the form when the demo started) under review',
      `curl -s -X POST ${base}/v1/applications/submissions/${sampleSubmissionId}/mark-under-review ${bearer} ${fresh}`,
    ],
    [
      'The chat bot, for Alice: she asks for an hour of time off',
      `curl -s -X POST ${base}/v1/staff/me/inactivity-notices ${key} ${chat} ${json} ${fresh} ` +
        `-d '${JSON.stringify({ ...notice, reason: 'Dentist' })}'`,
    ],
    [
      'The manager (dashboard token): pending time off of the test environment, Alice\'s among it',
      `curl -s '${base}/v1/staff/inactivity-notices?environment=test' -H 'Authorization: Bearer ${managerToken}'`,
    ],
    [
      'The chat bot\'s /review: a one-time console sign-in link for the reviewer, found by their chat account',
      `curl -s -X POST ${base}/v1/console/sign-in-links ${key} ` +
        `-H 'X-Chat-Guild-Id: ${DEMO.guildId}' -H 'X-Acting-Chat-User-Id: ${DEMO.reviewerChatUserId}'`,
    ],
  ];
}

/** What a person needs to try the demo, once, after the server listens. */
export function banner(values: BannerValues): string {
  const { base, databaseUrl, linkOptions, apiKey, token, managerToken, reviewerLink, managerLink } = values;
  const rule = '='.repeat(72);
  const row = (label: string, value: string) => `  ${label.padEnd(30)}${value}`;
  const hours = `${DEMO_CREDENTIALS_HOURS} h`;
  return [
    '',
    rule,
    `  workspace-gateway demo is serving at ${base}`,
    rule,
    row('Database:', databaseUrl),
    row('API reference:', `${base}/docs`),
    row('OpenAPI document:', `${base}/openapi.json`),
    row('Health / readiness:', `${base}/health  ${base}/ready`),
    row('Metrics (Prometheus):', `${base}/metrics`),
    '',
    row(`Test API key (${hours}):`, apiKey),
    row(`Dashboard token (${hours}):`, token),
    row(`Manager token (${hours}):`, managerToken),
    '',
    '  The console, one-time sign-in links (each works once, within 10 minutes):',
    row('Reviewer console:', reviewerLink),
    row('Manager console:', managerLink),
    '  New links while the demo runs:',
    `    npx workspace-gateway console-link --demo --user ${DEMO.userId}${linkOptions}`,
    `    npx workspace-gateway console-link --demo --user ${DEMO.managerId}${linkOptions}`,
    '',
    '  Try (each command after the line that explains it):',
    ...examples(values).flatMap(([explanation, command]) => [`    # ${explanation}`, `    ${command}`]),
    '',
    '  Request logs are quiet in the demo (LOG_LEVEL=info shows them). Press Ctrl+C to stop.',
    rule,
    '',
  ].join('\n');
}
