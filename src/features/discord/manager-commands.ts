/**
 * The managers' side (docs/DISCORD.md, "Commands"): `/timeoff pending` with its Approve and Deny buttons, and
 * `/review`'s console sign-in link. A press is decided by the time-off service as the dashboard's approve and deny
 * are, as the member the presser is, with the permission checked at the press.
 */
import { parseStringArray, type UserActor } from '../../shared/actor.ts';
import type { Executor } from '../../db/types.ts';
import { AppError } from '../../shared/errors.ts';
import type { ConsoleService } from '../console/service.ts';
import type { NoticeDecisionService } from '../time-off/decision-service.ts';
import type { NoticeItem, NoticeResult } from '../time-off/schemas.ts';
import type { Invocation } from './invocation.ts';
import { decisionButtons, ephemeral, noticeDays, plain, updateMessage, type ButtonRow, type InteractionResponse } from './messages.ts';
import { refusalSentence } from './refusals.ts';
import { findChatMember } from './repository.ts';
import type { DiscordWrites } from './writes.ts';

const DECIDE = 'notices.decide';
const PENDING_SHOWN = 5;
/** A reason as the pending list shows it: enough to decide on, within Discord's message length. */
const REASON_SHOWN = 250;

export interface ManagerCommandsDeps {
  readonly db: Executor;
  readonly noticeDecisions: NoticeDecisionService;
  readonly console: Pick<ConsoleService, 'linkForChatUser'>;
  readonly writes: DiscordWrites;
}

const NOT_A_MANAGER = 'Only managers who may decide time off can do this.';

export function createManagerCommands({ db, noticeDecisions, console, writes }: ManagerCommandsDeps) {
  /** The member the Discord user is in the workspace, as a dashboard user of that workspace alone. */
  async function memberActor(inv: Invocation): Promise<UserActor | undefined> {
    const member = await findChatMember(db, inv.workspaceId, inv.chat.actingChatUserId);
    if (!member) return undefined;
    return {
      kind: 'user',
      userId: member.user_id,
      memberships: new Map([[inv.workspaceId, new Set(parseStringArray(member.permissions))]]),
      selectedWorkspaceId: inv.workspaceId,
    };
  }

  const mayDecide = (actor: UserActor | undefined, inv: Invocation): actor is UserActor =>
    actor?.memberships.get(inv.workspaceId)?.has(DECIDE) === true;

  function line(index: number, notice: NoticeItem, inv: Invocation): string {
    const reason = notice.reason.length > REASON_SHOWN ? `${notice.reason.slice(0, REASON_SHOWN)}…` : notice.reason;
    return `${index + 1}. **${plain(notice.staff.displayName)}**, ${noticeDays(notice.startsAt, notice.endsAt, inv.timeZone)}: ${plain(reason)}`;
  }

  /** The pending notices as a message: a numbered list and, per notice, a row of Approve and Deny. */
  async function pendingList(actor: UserActor, inv: Invocation): Promise<{ content: string; components: ButtonRow[] }> {
    const page = await noticeDecisions.list(actor, { status: 'pending', environment: inv.environment, limit: PENDING_SHOWN });
    if (page.notices.length === 0) return { content: 'No time off is waiting for a decision.', components: [] };
    const more = page.nextCursor !== null ? ['More are waiting; decide these first, or use the console.'] : [];
    return {
      content: ['**Time off waiting for a decision**', ...page.notices.map((notice, i) => line(i, notice, inv)), ...more].join('\n'),
      components: page.notices.map((notice) => decisionButtons(notice.id)),
    };
  }

  return {
    async pending(inv: Invocation): Promise<InteractionResponse> {
      const actor = await memberActor(inv);
      if (!mayDecide(actor, inv)) return ephemeral(NOT_A_MANAGER);
      const list = await pendingList(actor, inv);
      return ephemeral(list.content, list.components);
    },

    /**
     * A press: the presser must be a member with `notices.decide` (else an ephemeral refusal, nothing changed);
     * the decision is made once per interaction; the message then shows it, who made it, and the notices still
     * pending (the decided one without buttons). A press on a notice decided already changes nothing.
     */
    async press(inv: Invocation, decision: 'approve' | 'deny', noticeId: string): Promise<InteractionResponse> {
      const actor = await memberActor(inv);
      if (!mayDecide(actor, inv)) return ephemeral(NOT_A_MANAGER);
      const outcome = await writes<NoticeResult>(inv, { button: `notice:${decision}:${noticeId}` }, (trx) =>
        noticeDecisions[decision](trx, actor, { noticeId, body: {}, request: { requestId: inv.requestId, idempotencyKey: inv.interactionId } }),
      );
      let head: string;
      if (outcome.ok) {
        const notice = outcome.data.notice;
        const word = decision === 'approve' ? 'Approved' : 'Denied';
        head = `${word} by ${plain(inv.userName)} (${plain(actor.userId)}): time off ${noticeDays(notice.startsAt, notice.endsAt, inv.timeZone)}.`;
      } else if (outcome.refusal.code === 'invalid_state_transition') {
        head = refusalSentence('decide', outcome.refusal);
      } else {
        return ephemeral(refusalSentence('decide', outcome.refusal));
      }
      const list = await pendingList(actor, inv);
      return updateMessage(`${head}\n\n${list.content}`, list.components);
    },

    async review(inv: Invocation, actorOfKey: Parameters<ConsoleService['linkForChatUser']>[0]): Promise<InteractionResponse> {
      try {
        const link = await console.linkForChatUser(actorOfKey, inv.chat, inv.baseUrl());
        return ephemeral(`Your console sign-in link (private, usable once, for 10 minutes): ${link.url}`);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        return ephemeral(refusalSentence('review', { code: error.code, message: error.message }));
      }
    },
  };
}

export type ManagerCommands = ReturnType<typeof createManagerCommands>;
