/**
 * Discord's interactions endpoint (docs/DISCORD.md): `discord-activity` sends `/activity` commands of random staff
 * members of the big workspace, each signed with an Ed25519 key as Discord signs them, to compare an interaction's
 * cost with the API read it wraps (`summary`, the same staff member's `GET /v1/activity/me/summary`) plus the
 * signature check alone, measured in this process with the gateway's own verifier (discord-signature.ts).
 *
 * The workspace is connected to a Discord application made for the run (its public key written into the run's
 * database, as provisioning writes it), in the data's environment.
 */
import type autocannon from 'autocannon';
import { openStore } from '../src/db/connect.ts';
import { upsertDiscordConnection } from '../src/provisioning/discord-repository.ts';
import { activityInteraction, discordKeys, measureSignatureCheck, signInteraction, type SignatureCheckCost } from './discord-signature.ts';
import { requestJson } from './http.ts';
import { ENVIRONMENT, type StaffPlan } from './plan.ts';
import { Random } from './random.ts';
import type { Scenario, ScenarioContext } from './scenarios.ts';
import { discordTarget } from './targets.ts';
import { dataOf, fail, type Workload } from './workload.ts';

export const DISCORD_APPLICATION_ID = '1187654321098765432';
const INTERACTIONS = `/v1/discord/applications/${DISCORD_APPLICATION_ID}/interactions`;
const INTERACTIONS_TEMPLATE = '/v1/discord/applications/{applicationId}/interactions';
/** Interactions signed for each load phase (random staff members): signing is the load generator's work, not measured. */
export const SIGNED_PER_PHASE = 512;
/** Checks of the signature measured alone, once per run. */
export const SIGNATURE_CHECKS = 20_000;

interface InteractionAnswer {
  readonly type: number;
  readonly data?: { readonly content?: string; readonly flags?: number; readonly allowed_mentions?: { readonly parse: unknown[] } };
}

export function discordScenarios(ctx: ScenarioContext, workload: Workload): Record<'discord-activity', Scenario> {
  const big = ctx.plan.big;
  const keys = discordKeys();
  let interactions = 0;
  const nextId = () => {
    interactions += 1;
    return String(1_400_000_000_000_000_000n + BigInt(interactions));
  };
  const signedFor = (staff: StaffPlan) =>
    signInteraction(keys, activityInteraction(DISCORD_APPLICATION_ID, big.guildId, staff.chatUserId, nextId()));
  let signatureCheck: SignatureCheckCost | null = null;

  const activity: Scenario = {
    name: 'discord-activity',
    title: `POST ${INTERACTIONS_TEMPLATE}: /activity of random staff, signed (compare with summary + the signature check alone)`,
    async prepare() {
      const store = openStore(ctx.databaseUrl);
      try {
        await upsertDiscordConnection(store.db, {
          workspace_id: big.id,
          application_id: DISCORD_APPLICATION_ID,
          public_key: keys.publicKeyHex,
          environment: ENVIRONMENT,
          updated_at: Date.now(),
        });
      } finally {
        await store.close();
      }
      signatureCheck ??= measureSignatureCheck(SIGNATURE_CHECKS);
      ctx.log(`  the signature check alone: ${signatureCheck.cpuMicrosecondsPerCheck} µs CPU per check (${signatureCheck.iterations} checks in this process)`);
    },
    async check() {
      // The answer is the summary's week, as an ephemeral message that pings no one.
      const staff = big.staff.find((s) => s.status === 'active');
      if (!staff) fail('discord-activity', 'no active staff member in the data');
      const summary = dataOf<{ currentWeekMinutes: number; progressPercent: number }>(
        await workload.get('/v1/activity/me/summary', workload.chatHeaders(staff)),
      );
      const signed = signedFor(staff);
      const response = await requestJson(ctx.baseUrl, { method: 'POST', path: INTERACTIONS, headers: signed.headers, body: JSON.parse(signed.body) });
      ctx.contract.check('discord-activity', 'POST', INTERACTIONS_TEMPLATE, response);
      const answer = response.body as InteractionAnswer;
      const content = answer.data?.content ?? '';
      if (answer.type !== 4 || answer.data?.flags !== 64) fail('discord-activity', `not an ephemeral message: ${response.text.slice(0, 200)}`);
      if (answer.data?.allowed_mentions?.parse.length !== 0) fail('discord-activity', 'the message may ping someone');
      const week = `**This week**: ${summary.currentWeekMinutes} minute`;
      if (!content.startsWith(week) || !content.includes(`(${summary.progressPercent}%)`)) {
        fail('discord-activity', `the answer ${JSON.stringify(content)} is not the summary's week (${summary.currentWeekMinutes} minutes, ${summary.progressPercent}%)`);
      }
      // A wrong signature is refused.
      const forged = { ...signed.headers, 'x-signature-ed25519': '0'.repeat(128) };
      const refused = await requestJson(ctx.baseUrl, { method: 'POST', path: INTERACTIONS, headers: forged, body: JSON.parse(signed.body) });
      if (refused.status !== 401) fail('discord-activity', `a forged signature answered ${refused.status}`);
    },
    targets(records) {
      return [discordTarget(ctx.store, records, signatureCheck?.cpuMicrosecondsPerCheck ?? null)];
    },
    requests(): autocannon.RequestSpec[] {
      // Staff members drawn as the summary scenario draws them, signed now (a signature holds for 5 minutes).
      const random = new Random(7_000 + interactions);
      const pool = Array.from({ length: SIGNED_PER_PHASE }, () => signedFor(random.pick(big.staff)));
      let n = 0;
      return [
        {
          method: 'POST',
          path: INTERACTIONS,
          setupRequest: (request: autocannon.RequestSpec) => {
            const signed = pool[n % pool.length];
            n += 1;
            return { ...request, headers: signed?.headers ?? {}, body: signed?.body ?? '' };
          },
        },
      ];
    },
  };
  return { 'discord-activity': activity };
}
