/**
 * Roblox's right-to-erasure notifications, taken by the gateway itself (docs/ROBLOX.md, "Erasure requests"). A
 * request signed with the workspace's webhook secret (signature.ts; else 401, also without a secret) and carrying
 * a notification: `RightToErasureRequest` erases `EventPayload.UserId` in that workspace exactly as the `erase`
 * command does (eraseGameUserIn), any other type is acknowledged and ignored, and a notification id seen before
 * is acknowledged without erasing again. Roblox wants an answer within 5 s: an erasure still running after
 * `answerWithinMs` is answered (`erasing`) and finishes in the background, its record written when it commits.
 * Each handled notification is recorded with its time and counts, never the user id.
 */
import type { Store } from '../../db/store.ts';
import type { Clock } from '../../shared/clock.ts';
import { AppError, unauthenticated, validationError } from '../../shared/errors.ts';
import { isUuid } from '../../shared/ids.ts';
import { eraseGameUserIn, GAME_USER_ID_PATTERN } from '../erasure/service.ts';
import type { Timer } from '../../webhooks/timer.ts';
import { findErasureRequest, findWebhookSecret, insertErasureRequest } from './repository.ts';
import { verifyRobloxSignature } from './signature.ts';

export const ERASURE_EVENT = 'RightToErasureRequest';

export type ErasureOutcome = 'erased' | 'erasing' | 'ignored' | 'repeated';

export interface ErasureAnswer {
  readonly notificationId: string;
  readonly outcome: ErasureOutcome;
}

interface Notification {
  readonly notificationId: string;
  readonly eventType: string;
  readonly userId: unknown;
}

const UNSIGNED = 'The request is not signed with this workspace\'s Roblox webhook secret, or its signature is stale.';

function idText(value: unknown): string | null {
  if (typeof value === 'string' && value !== '' && value.length <= 200) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return null;
}

/** The notification a signed body carries, or 400 naming what is wrong. */
function parseNotification(raw: Buffer): Notification {
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new AppError('invalid_json', 'The request body is not valid JSON.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw validationError([{ path: 'body', message: 'must be an object' }]);
  }
  const body = value as Record<string, unknown>;
  const notificationId = idText(body.NotificationId);
  const issues = [];
  if (notificationId === null) issues.push({ path: 'body.NotificationId', message: 'must be a string or a number' });
  if (typeof body.EventType !== 'string' || body.EventType === '') issues.push({ path: 'body.EventType', message: 'must be a string' });
  if (issues.length > 0) throw validationError(issues);
  const payload = body.EventPayload;
  const userId = payload !== null && typeof payload === 'object' ? (payload as Record<string, unknown>).UserId : undefined;
  return { notificationId: notificationId!, eventType: body.EventType as string, userId };
}

export interface ErasureRequestDeps {
  readonly store: Pick<Store, 'db' | 'write'>;
  readonly clock: Clock;
  readonly timer: Timer;
  /** Logged: the notification id and the outcome only. */
  readonly log: { info(object: object, message: string): void; error(object: object, message: string): void };
  /** How long the answer waits for the erasure before answering `erasing` (Roblox waits 5 s). */
  readonly answerWithinMs?: number;
}

export function createErasureRequestService({ store, clock, timer, log, answerWithinMs = 4_000 }: ErasureRequestDeps) {
  return {
    async handle(workspaceParam: string, signature: string | undefined, raw: Buffer): Promise<ErasureAnswer> {
      const workspaceId = workspaceParam.toLowerCase();
      const secret = isUuid(workspaceId) ? await findWebhookSecret(store.db, workspaceId) : null;
      if (secret === null || !verifyRobloxSignature(signature, secret, raw, clock.now())) throw unauthenticated(UNSIGNED);
      const { notificationId, eventType, userId } = parseNotification(raw);
      const answer = (outcome: ErasureOutcome): ErasureAnswer => ({ notificationId, outcome });
      if (await findErasureRequest(store.db, workspaceId, notificationId)) return answer('repeated');
      const receivedAt = clock.now();
      const record = { workspace_id: workspaceId, notification_id: notificationId, event_type: eventType.slice(0, 100), received_at: receivedAt };
      if (eventType !== ERASURE_EVENT) {
        const recorded = await store.write((trx) =>
          insertErasureRequest(trx, { ...record, status: 'ignored', counts: null, completed_at: receivedAt }),
        );
        return answer(recorded ? 'ignored' : 'repeated');
      }
      const gameUserId = idText(userId);
      if (gameUserId === null || !GAME_USER_ID_PATTERN.test(gameUserId)) {
        throw validationError([{ path: 'body.EventPayload.UserId', message: 'must be a Roblox user id (1 to 32 digits)' }]);
      }
      // The erasure and its record commit together: a process that dies meanwhile leaves neither, and Roblox's
      // retry of the notification erases.
      const erasing = store.write(async (trx) => {
        const result = await eraseGameUserIn(trx, clock, gameUserId, { workspaceId });
        const recorded = await insertErasureRequest(trx, {
          ...record,
          status: 'erased',
          counts: JSON.stringify(result.counts),
          completed_at: clock.now(),
        });
        return recorded ? 'erased' : 'repeated';
      });
      let handle: ReturnType<Timer['setTimeout']> | undefined;
      const late = new Promise<'erasing'>((resolve) => {
        handle = timer.setTimeout(() => resolve('erasing'), answerWithinMs);
      });
      const outcome = await Promise.race([erasing, late]);
      if (handle !== undefined) timer.clearTimeout(handle);
      if (outcome === 'erasing') {
        log.info({ notificationId }, 'Roblox erasure request answered before its erasure finished; it goes on in the background');
        erasing.then(
          () => log.info({ notificationId }, 'Roblox erasure request erased in the background'),
          (err: unknown) => log.error({ err, notificationId }, 'Roblox erasure request failed in the background; Roblox\'s retry will run it again'),
        );
      }
      return answer(outcome);
    },
  };
}

export type ErasureRequestService = ReturnType<typeof createErasureRequestService>;
