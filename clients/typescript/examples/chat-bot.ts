// Four chat-bot commands. `/activity`: the asking member's week and the top of the workspace's weekly leaderboard.
// `/application`: an applicant's "what happened to my application?", from their newest submission.
// `/loa`: a staff member's time off: ask, list, cancel (loa.ts).
// `/review`: a reviewer's or manager's console sign-in link, answered privately (review.ts).
// Wire `activityCommand`, `applicationCommand`, `loaCommand` and `reviewCommand` to your chat library's command
// handlers; each returns the message to post (`reviewCommand` one to send as an ephemeral reply).
//
//   GATEWAY_URL=https://gateway.example.com GATEWAY_API_KEY=wsk_live_… node chat-bot.js <guildId> <chatUserId>
//   GATEWAY_URL=https://gateway.example.com GATEWAY_API_KEY=wsk_live_… node chat-bot.js application <gameUserId>
//   GATEWAY_URL=https://gateway.example.com GATEWAY_API_KEY=wsk_live_… node chat-bot.js loa <guildId> <chatUserId> list
//   GATEWAY_URL=https://gateway.example.com GATEWAY_API_KEY=wsk_live_… node chat-bot.js review <guildId> <chatUserId>
//
// The installed package holds this file compiled to chat-bot.js (node node_modules/@workspace-gateway/client/
// examples/chat-bot.js …); in the repository, `node --conditions=workspace-gateway-source chat-bot.ts …` runs the source.
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { createGatewayClient, GatewayError, type GatewayClient } from '@workspace-gateway/client';
import { LOA_USAGE, loaCommand, parseLoa } from './loa.ts';
import { reviewCommand } from './review.ts';

export { loaCommand, parseLoa, type LoaCommand } from './loa.ts';
export { reviewCommand, type PrivateReply } from './review.ts';

/** Who ran the command, as the chat platform reports it. */
export interface CommandContext {
  readonly guildId: string;
  readonly chatUserId: string;
  /**
   * The chat platform's id of this command, to find it in the gateway's logs; `/loa` also sends it as the
   * Idempotency-Key of its writes, so a command the platform delivers twice asks (or cancels) once.
   */
  readonly commandId?: string;
}

const minutes = (total: number): string => `${Math.floor(total / 60)} h ${String(total % 60).padStart(2, '0')} min`;

export async function activityCommand(gateway: GatewayClient, ctx: CommandContext): Promise<string> {
  const chat = { chatGuildId: ctx.guildId, actingChatUserId: ctx.chatUserId };
  const options = ctx.commandId ? { correlationId: ctx.commandId } : {};
  try {
    const [summary, board] = await Promise.all([
      gateway.getActivitySummary(chat, options),
      gateway.getActivityLeaderboard({ period: 'week', limit: 5 }, options),
    ]);
    const week = summary.body.data;
    const lines = [
      `**Your week**: ${minutes(week.currentWeekMinutes)} of ${minutes(week.weeklyRequiredMinutes)} ` +
        `(${week.progressPercent.toFixed(0)} %)`,
      week.activeShift ? `On shift now on server ${week.activeShift.serverId}.` : 'Not on shift.',
    ];
    if (week.inactivityEffect) lines.push(`Inactivity notice: ${week.inactivityEffect.waivedMinutes} min waived.`);
    lines.push('', '**Leaderboard (this week)**');
    for (const e of board.body.data.entries) lines.push(`${e.position}. ${e.displayName}: ${minutes(e.totalMinutes)}`);
    return lines.join('\n');
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    // Expected refusals get a friendly answer; anything else names the request id for the operators.
    if (error.code === 'not_found') return 'You are not on the staff of this community.';
    if (error.code === 'chat_not_connected' || error.code === 'guild_mismatch') return 'This server is not linked to a workspace.';
    if (error.code === 'rate_limited') return `Too many requests right now; try again in ${error.retryAfterSeconds ?? 60} s.`;
    return `Something went wrong (${error.code}, request ${error.requestId ?? 'unknown'}).`;
  }
}

const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });
const STATUS_WORDS = {
  submitted: 'is waiting for a reviewer',
  under_review: 'is being reviewed',
  accepted: 'was accepted',
  rejected: 'was not accepted',
} as const;

/**
 * `/application`: the applicant's newest submission in plain words (the key needs `applications:read`). The bot
 * knows the applicant's game user id from its own account linking; the gateway tells only what an applicant may be
 * told (form, status, dates), never scores or notes.
 */
export async function applicationCommand(gateway: GatewayClient, gameUserId: string, commandId?: string): Promise<string> {
  try {
    const reply = await gateway.listApplicantSubmissions(gameUserId, commandId ? { correlationId: commandId } : {});
    const newest = reply.body.data.submissions[0];
    if (!newest) return 'You have not applied yet.';
    const form = newest.formName ? ` to "${newest.formName}"` : '';
    const when = newest.decidedAt ? ` on ${day.format(new Date(newest.decidedAt))}` : '';
    const sent = day.format(new Date(newest.createdAt));
    return `Your application${form}, sent on ${sent}, ${STATUS_WORDS[newest.status]}${when}.`;
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    if (error.code === 'validation_failed') return 'That is not a game user id.';
    if (error.code === 'feature_disabled') return 'This community does not take applications here.';
    if (error.code === 'rate_limited') return `Too many requests right now; try again in ${error.retryAfterSeconds ?? 60} s.`;
    return `Something went wrong (${error.code}, request ${error.requestId ?? 'unknown'}).`;
  }
}

const USAGE = [
  'usage: GATEWAY_URL=… GATEWAY_API_KEY=… node chat-bot.js <guildId> <chatUserId>',
  '       GATEWAY_URL=… GATEWAY_API_KEY=… node chat-bot.js application <gameUserId>',
  '       GATEWAY_URL=… GATEWAY_API_KEY=… node chat-bot.js loa <guildId> <chatUserId> ask <first day> <last day> <reason>',
  '       GATEWAY_URL=… GATEWAY_API_KEY=… node chat-bot.js loa <guildId> <chatUserId> list | cancel <notice id>',
  '       GATEWAY_URL=… GATEWAY_API_KEY=… node chat-bot.js review <guildId> <chatUserId>',
  '',
].join('\n');

/** The answer to the command line `args`, or null when they are not a command. */
async function answerFor(gateway: GatewayClient, args: readonly string[]): Promise<string | null> {
  const [first, second, third, ...rest] = args;
  if (!first || !second) return null;
  if (first === 'application') return args.length === 2 ? applicationCommand(gateway, second) : null;
  if (first === 'review') {
    return args.length === 3 && third ? (await reviewCommand(gateway, { guildId: second, chatUserId: third })).content : null;
  }
  if (first !== 'loa') return args.length === 2 ? activityCommand(gateway, { guildId: first, chatUserId: second }) : null;
  if (!third) return null;
  const command = parseLoa(rest);
  return command ? loaCommand(gateway, { guildId: second, chatUserId: third }, command) : LOA_USAGE;
}

// Run directly (this file is the program Node was started with, under any name): print the answer to one command.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const baseUrl = process.env.GATEWAY_URL;
  const apiKey = process.env.GATEWAY_API_KEY;
  const gateway = baseUrl && apiKey ? createGatewayClient({ baseUrl, apiKey, retry: { retries: 2 } }) : undefined;
  const answer = gateway ? await answerFor(gateway, process.argv.slice(2)) : null;
  if (answer === null) {
    process.stderr.write(USAGE);
    process.exitCode = 2;
  } else {
    process.stdout.write(`${answer}\n`);
  }
}
