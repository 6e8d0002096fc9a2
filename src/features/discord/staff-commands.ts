/**
 * The staff side of the commands (docs/DISCORD.md, "Commands"): `/activity`, `/leaderboard`, `/onduty` and
 * `/loa`. Each calls the API's own service, so its rules and refusals are the API's; here they become words.
 */
import { DAY_MS, type Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import { isUuid } from '../../shared/ids.ts';
import type { ReportService } from '../activity/reports/service.ts';
import type { ShiftService } from '../activity/shifts/service.ts';
import { addDays, zonedMidnight } from '../activity/periods/periods.ts';
import type { NoticeService } from '../time-off/service.ts';
import type { Notice, NoticeResult } from '../time-off/schemas.ts';
import type { LeaderboardPeriod } from './commands.ts';
import { discordActor, discordAudience, type Invocation } from './invocation.ts';
import { discordTime, ephemeral, minutes, noticeDays, plain, publicReply, type InteractionResponse } from './messages.ts';
import { refusalSentence, type CommandKind, type Refusal } from './refusals.ts';
import type { DiscordWrites } from './writes.ts';

const LEADERBOARD_SIZE = 10;
const ON_DUTY_SHOWN = 25;
/** The longest range a report covers: what `/leaderboard period:all` shows. */
const ALL_DAYS = 366;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const STATUS_WORDS: Readonly<Record<Notice['status'], string>> = {
  pending: 'waiting for a manager',
  approved: 'approved',
  denied: 'denied',
  cancelled: 'cancelled',
};

export interface StaffCommandsDeps {
  readonly reports: ReportService;
  readonly shifts: ShiftService;
  readonly notices: NoticeService;
  readonly writes: DiscordWrites;
  readonly clock: Clock;
}

function refusalOf(error: unknown): Refusal {
  if (error instanceof AppError) return { code: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) };
  throw error;
}

/** Runs a read; a refusal becomes its ephemeral sentence. */
async function answering(kind: CommandKind, work: () => Promise<InteractionResponse>): Promise<InteractionResponse> {
  try {
    return await work();
  } catch (error) {
    return ephemeral(refusalSentence(kind, refusalOf(error)));
  }
}

/** A `YYYY-MM-DD` date's local midnight in the zone, `days` after it; undefined when it is not such a date. */
function localMidnight(text: string, timeZone: string, days: number): number | undefined {
  const match = DATE.exec(text.trim());
  if (!match) return undefined;
  const date = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  const check = new Date(Date.UTC(date.year, date.month - 1, date.day));
  if (check.getUTCFullYear() !== date.year || check.getUTCMonth() !== date.month - 1 || check.getUTCDate() !== date.day) return undefined;
  const next = addDays(date, days);
  return zonedMidnight(next.year, next.month, next.day, timeZone);
}

function noticeLine(notice: Notice, timeZone: string): string {
  return `\`${notice.id.slice(0, 8)}\` ${noticeDays(notice.startsAt, notice.endsAt, timeZone)}: ${STATUS_WORDS[notice.status]}`;
}

export function createStaffCommands({ reports, shifts, notices, writes, clock }: StaffCommandsDeps) {
  return {
    activity: (inv: Invocation) =>
      answering('activity', async () => {
        const week = await reports.summary(discordActor(inv), inv.chat);
        const lines = [
          `**This week**: ${minutes(week.currentWeekMinutes)} of ${minutes(week.weeklyRequiredMinutes)} required (${week.progressPercent}%).`,
        ];
        if (week.inactivityEffect) {
          lines.push(`Time off lowers this week's requirement by ${minutes(week.inactivityEffect.waivedMinutes)}.`);
        }
        lines.push(week.activeShift ? `On shift since ${discordTime(week.activeShift.startedAt, 'R')}.` : 'Not on shift now.');
        return ephemeral(lines.join('\n'));
      }),

    leaderboard: (inv: Invocation, period: LeaderboardPeriod) =>
      answering('list', async () => {
        const now = clock.now();
        const query =
          period === 'all'
            ? { start: new Date(now - ALL_DAYS * DAY_MS).toISOString(), end: new Date(now).toISOString(), limit: LEADERBOARD_SIZE }
            : { period, limit: LEADERBOARD_SIZE };
        const board = await reports.leaderboard(discordAudience(inv), query);
        const title = period === 'all' ? 'the last 366 days' : `this ${period}`;
        if (board.entries.length === 0) return publicReply(`**Leaderboard, ${title}**: no staff members yet.`);
        const lines = board.entries.map(
          (entry) => `${entry.position}. ${plain(entry.displayName)}: ${minutes(entry.totalMinutes)} (${entry.progressPercent}%)`,
        );
        return publicReply([`**Leaderboard, ${title}**`, ...lines].join('\n'));
      }),

    onduty: (inv: Invocation) =>
      answering('list', async () => {
        const audience = discordAudience(inv);
        const shown: string[] = [];
        let more = 0;
        let cursor: { cursorStartedAt: string; cursorId: string } | null = null;
        do {
          const page: Awaited<ReturnType<ShiftService['listActive']>> = await shifts.listActive(audience, { limit: 100, ...(cursor ?? {}) });
          for (const shift of page.shifts) {
            if (shown.length < ON_DUTY_SHOWN) shown.push(`${plain(shift.staff.displayName)}, since ${discordTime(shift.startedAt, 'R')}`);
            else more += 1;
          }
          cursor = page.nextCursor;
        } while (cursor !== null);
        if (shown.length === 0) return publicReply('**On duty**: nobody is on shift now.');
        const tail = more > 0 ? [`and ${more} more.`] : [];
        return publicReply(['**On duty**', ...shown.map((line) => `- ${line}`), ...tail].join('\n'));
      }),

    async loaRequest(inv: Invocation, options: { start: string; end: string; reason: string }): Promise<InteractionResponse> {
      const start = localMidnight(options.start, inv.timeZone, 0);
      const end = localMidnight(options.end, inv.timeZone, 1);
      for (const [text, value] of [[options.start, start], [options.end, end]] as const) {
        if (value === undefined) return ephemeral(`I could not read "${plain(text)}" as a date; write it like 2026-12-24.`);
      }
      const body = { startsAt: new Date(start!).toISOString(), endsAt: new Date(end!).toISOString(), reason: options.reason };
      const outcome = await writes<NoticeResult>(inv, { command: 'loa request', ...options }, (trx) =>
        notices.request(trx, discordActor(inv), { chat: inv.chat, body, request: { requestId: inv.requestId, idempotencyKey: inv.interactionId } }),
      );
      if (!outcome.ok) return ephemeral(refusalSentence('loa-request', outcome.refusal));
      const notice = outcome.data.notice;
      return ephemeral(
        `Asked: time off ${noticeDays(notice.startsAt, notice.endsAt, inv.timeZone)} (\`${notice.id.slice(0, 8)}\`). ` +
          'A manager will decide; `/loa list` shows where it stands.',
      );
    },

    loaList: (inv: Invocation) =>
      answering('loa-list', async () => {
        const mine = await notices.listMine(discordActor(inv), inv.chat);
        if (mine.length === 0) return ephemeral('You have no time off. Ask with `/loa request`.');
        return ephemeral(['**Your time off**', ...mine.map((notice) => noticeLine(notice, inv.timeZone))].join('\n'));
      }),

    async loaCancel(inv: Invocation, given: string): Promise<InteractionResponse> {
      const text = given.trim().toLowerCase();
      let noticeId = text;
      if (!isUuid(text)) {
        // A prefix as `/loa list` shows it: the one of the staff member's notices it starts.
        let mine: Notice[];
        try {
          mine = await notices.listMine(discordActor(inv), inv.chat);
        } catch (error) {
          return ephemeral(refusalSentence('loa-list', refusalOf(error)));
        }
        const matches = text.length >= 8 ? mine.filter((notice) => notice.id.startsWith(text)) : [];
        if (matches.length !== 1) {
          return ephemeral(
            matches.length === 0
              ? `You have no time off with the id "${plain(given)}"; \`/loa list\` shows yours.`
              : 'Several of your notices start with that; give more of its id.',
          );
        }
        noticeId = matches[0]!.id;
      }
      const outcome = await writes<NoticeResult>(inv, { command: 'loa cancel', notice: noticeId }, (trx) =>
        notices.cancel(trx, discordActor(inv), {
          chat: inv.chat,
          noticeId,
          request: { requestId: inv.requestId, idempotencyKey: inv.interactionId },
        }),
      );
      if (!outcome.ok) return ephemeral(refusalSentence('loa-cancel', outcome.refusal));
      const notice = outcome.data.notice;
      if (notice.status === 'cancelled') return ephemeral(`Cancelled: time off ${noticeDays(notice.startsAt, notice.endsAt, inv.timeZone)}.`);
      return ephemeral(`Welcome back! Your time off now ended ${discordTime(notice.endsAt)}; the time you took still counts.`);
    },
  };
}

export type StaffCommands = ReturnType<typeof createStaffCommands>;
