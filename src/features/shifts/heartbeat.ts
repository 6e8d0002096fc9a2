/**
 * The fused heartbeat: the common heartbeat as one statement (PostgreSQL) or two (SQLite), its stored result
 * included (src/idempotency/fused-write.ts). When a heartbeat's outcome cannot be known in advance, or the
 * statement changes nothing, the full operation runs instead (service.ts), which replays, refuses or explains.
 */
import type { ApiKeyActor } from '../../actor.ts';
import { toIso } from '../../clock.ts';
import { isUuid } from '../../ids.ts';
import { defineFusedWrite, type FusedWriteRun } from '../../idempotency/index.ts';
import { keyCredentialHolds, type KeyCredentialParams } from '../../keys/credential.ts';
import { predictedHeartbeat, type PredictedHeartbeatParams } from './repository.ts';
import { clientInstant } from './rules.ts';
import type { HeartbeatBody, HeartbeatShift } from './schemas.ts';

/**
 * A heartbeat with and without a `serverId`. Its condition, checked when the caller's key was reused without a
 * lookup: the key and its application still are as they were when it was last looked up.
 */
const heartbeatAnyServer = defineFusedWrite<PredictedHeartbeatParams, KeyCredentialParams>({
  name: 'shift heartbeat',
  effect: predictedHeartbeat(false),
  condition: keyCredentialHolds,
});
const heartbeatOfServer = defineFusedWrite<PredictedHeartbeatParams, KeyCredentialParams>({
  name: 'shift heartbeat of its server',
  effect: predictedHeartbeat(true),
  condition: keyCredentialHolds,
});

export function heartbeatView(row: { readonly id: string; readonly last_heartbeat_at: number }): HeartbeatShift {
  return { id: row.id, status: 'active', lastHeartbeatAt: toIso(row.last_heartbeat_at) };
}

/**
 * The heartbeat as a fused write: the shift it answers with, and the statement that records exactly that. Null
 * when the request has to take the full path: an id or instant the full path refuses (the refusal is then
 * stored with the key).
 */
export function fusedHeartbeat(
  actor: ApiKeyActor,
  shiftId: string,
  body: HeartbeatBody,
  now: number,
  staleBefore: number,
  /** The reused key's values, when the key was reused without a lookup (its condition is then checked). */
  credential: KeyCredentialParams | undefined,
): FusedWriteRun<PredictedHeartbeatParams, KeyCredentialParams> | null {
  if (!isUuid(shiftId)) return null;
  let recordedAt: number;
  try {
    recordedAt = clientInstant('recordedAt', body?.recordedAt, now);
  } catch {
    return null;
  }
  const serverId = body?.serverId;
  // Built property by property: this runs on every heartbeat, and object spreads cost V8 far more.
  const params: PredictedHeartbeatParams = {
    id: shiftId,
    recordedAt,
    seenAt: now,
    staleBefore,
    applicationId: actor.application.id,
    environment: actor.environment,
    notBefore: recordedAt,
    serverId, // bound only by the statement for a heartbeat that names its server
  };
  return {
    write: serverId === undefined ? heartbeatAnyServer : heartbeatOfServer,
    params,
    conditionParams: credential,
    response: { status: 200, body: { data: { shift: heartbeatView({ id: shiftId, last_heartbeat_at: recordedAt }) } } },
    row: shiftId,
  };
}
