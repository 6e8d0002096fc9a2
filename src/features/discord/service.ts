/**
 * Discord interactions (docs/DISCORD.md): the application's key and the signature first (null: 401), then a PING
 * is answered, and a command or a button press is routed to the workspace whose server it came from, as the
 * Discord user who sent it.
 */
import {
  ApplicationCommandOptionType,
  InteractionType,
  type APIApplicationCommandInteractionDataOption,
} from 'discord-api-types/v10';
import type { Clock } from '../../shared/clock.ts';
import type { Config } from '../../shared/config.ts';
import type { Store } from '../../db/store.ts';
import type { Idempotency } from '../../idempotency/index.ts';
import { createReportService } from '../activity/reports/service.ts';
import { createShiftService } from '../activity/shifts/service.ts';
import { reportingTimeZone } from '../activity/periods/periods.ts';
import { createConsoleService } from '../console/service.ts';
import { createNoticeDecisionService } from '../time-off/decision-service.ts';
import { createNoticeService } from '../time-off/service.ts';
import { COMMAND, LEADERBOARD_PERIODS, LOA, TIMEOFF, type LeaderboardPeriod } from './commands.ts';
import { discordActor, type Invocation } from './invocation.ts';
import { createManagerCommands } from './manager-commands.ts';
import { ephemeral, parseDecisionButton, PONG, type InteractionResponse } from './messages.ts';
import { findApplicationWorkspaces } from './repository.ts';
import { createSignatureVerifier, type SignedRequest } from './signature.ts';
import { createStaffCommands } from './staff-commands.ts';
import { createDiscordWrites } from './writes.ts';

export interface DiscordServiceDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly config: Config;
  readonly idempotency: Idempotency;
}

export interface InteractionContext {
  readonly requestId: string;
  /** The gateway's public address, asked for only by a command that needs it (`/review`). */
  readonly baseUrl: () => string;
}

const APPLICATION_ID = /^[0-9]{1,32}$/;
const ELSEWHERE = 'This command works only in the Discord server of a community connected to this gateway.';

type Option = APIApplicationCommandInteractionDataOption;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The string options of a command or its subcommand, by name. */
function optionsOf(options: readonly Option[] | undefined): { sub: string | undefined; values: Map<string, string> } {
  const values = new Map<string, string>();
  let sub: string | undefined;
  for (const option of options ?? []) {
    if (option.type === ApplicationCommandOptionType.Subcommand) {
      sub = option.name;
      for (const inner of option.options ?? []) if ('value' in inner) values.set(inner.name, String(inner.value));
    } else if ('value' in option) values.set(option.name, String(option.value));
  }
  return { sub, values };
}

export function createDiscordService({ store, clock, config, idempotency }: DiscordServiceDeps) {
  const db = store.db;
  const verifySignature = createSignatureVerifier();
  const writes = createDiscordWrites(idempotency);
  const staff = createStaffCommands({
    reports: createReportService({ db, read: (job) => store.read(job), clock, config }),
    shifts: createShiftService({ store, clock, config }),
    notices: createNoticeService({ db, clock }),
    writes,
    clock,
  });
  const managers = createManagerCommands({
    db,
    noticeDecisions: createNoticeDecisionService({ db, clock }),
    console: createConsoleService({ store, clock, config }),
    writes,
  });

  async function command(inv: Invocation, name: string, options: readonly Option[] | undefined): Promise<InteractionResponse> {
    const { sub, values } = optionsOf(options);
    const value = (key: string) => values.get(key) ?? '';
    switch (name) {
      case COMMAND.activity:
        return staff.activity(inv);
      case COMMAND.leaderboard: {
        const period = values.get('period') ?? 'week';
        return staff.leaderboard(inv, (LEADERBOARD_PERIODS as readonly string[]).includes(period) ? (period as LeaderboardPeriod) : 'week');
      }
      case COMMAND.onduty:
        return staff.onduty(inv);
      case COMMAND.loa:
        if (sub === LOA.request) return staff.loaRequest(inv, { start: value('start'), end: value('end'), reason: value('reason') });
        if (sub === LOA.list) return staff.loaList(inv);
        if (sub === LOA.cancel) return staff.loaCancel(inv, value('notice'));
        break;
      case COMMAND.timeoff:
        if (sub === TIMEOFF.pending) return managers.pending(inv);
        break;
      case COMMAND.review:
        return managers.review(inv, discordActor(inv));
    }
    return ephemeral('This gateway does not know that command; ask an administrator to run `discord register` again.');
  }

  return {
    /**
     * The interaction's answer, or null when it must be refused with 401: an unknown application, or a missing,
     * wrong or stale signature. Nothing else is read before the signature holds.
     */
    async handle(applicationId: string, signed: SignedRequest, context: InteractionContext): Promise<InteractionResponse | null> {
      if (!APPLICATION_ID.test(applicationId)) return null;
      const workspaces = await findApplicationWorkspaces(db, applicationId);
      const publicKey = workspaces[0]?.public_key;
      if (publicKey === undefined || !verifySignature(publicKey, signed, clock.now())) return null;

      let interaction: unknown;
      try {
        interaction = JSON.parse(signed.body.toString('utf8'));
      } catch {
        return ephemeral('Discord sent something this gateway cannot read.');
      }
      if (!isRecord(interaction)) return ephemeral('Discord sent something this gateway cannot read.');
      if (interaction.type === InteractionType.Ping) return PONG;

      const guildId = text(interaction.guild_id);
      const member = isRecord(interaction.member) ? interaction.member : undefined;
      const user = member && isRecord(member.user) ? member.user : undefined;
      const userId = text(user?.id);
      const workspace = workspaces.find((w) => w.guild_id !== null && w.guild_id === guildId && w.chat_status === 'connected');
      const id = text(interaction.id);
      if (guildId === undefined || userId === undefined || workspace === undefined || id === undefined) return ephemeral(ELSEWHERE);
      const inv: Invocation = {
        applicationId,
        interactionId: id,
        workspaceId: workspace.workspace_id,
        timeZone: reportingTimeZone(workspace.timezone),
        environment: workspace.environment,
        chat: { guildId, actingChatUserId: userId },
        userName: text(member?.nick) ?? text(user?.global_name) ?? text(user?.username) ?? userId,
        requestId: context.requestId,
        baseUrl: context.baseUrl,
      };
      const data = isRecord(interaction.data) ? interaction.data : {};
      if (interaction.type === InteractionType.ApplicationCommand) {
        const options = Array.isArray(data.options) ? (data.options as Option[]) : undefined;
        return command(inv, text(data.name) ?? '', options);
      }
      if (interaction.type === InteractionType.MessageComponent) {
        const button = parseDecisionButton(text(data.custom_id) ?? '');
        if (button) return managers.press(inv, button.decision, button.noticeId);
      }
      return ephemeral('This gateway does not handle that kind of interaction.');
    },
  };
}

export type DiscordService = ReturnType<typeof createDiscordService>;
