/**
 * The credential of an API key actor reused without a lookup (see src/http/api-key-auth.ts): the values it was
 * built from, and the SQL condition under which they still hold, which the statement that acts for it checks.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { ApiKeyActor } from '../actor.ts';
import type { Param } from '../db/prepared.ts';

/** The key and application values an actor was built from; its credential holds while all are unchanged. */
export type KeyCredentialParams = {
  readonly credentialHash: string;
  readonly credentialKeyId: string;
  readonly credentialEnvironment: string;
  readonly credentialScopes: string;
  readonly credentialNow: number;
  readonly credentialApplicationId: string;
  readonly credentialApplicationName: string;
  readonly credentialWorkspaceId: string;
  readonly credentialFeatures: string;
  readonly credentialUniverses: string;
};

/**
 * The key is still unrevoked, unexpired and unchanged, and its application approved and unchanged: the condition
 * under which an actor reused without a lookup is exactly the actor a lookup would build now.
 */
export const keyCredentialHolds = (p: Param<KeyCredentialParams>): Expression<SqlBool> => sql<SqlBool>`exists (
  select 1 from api_keys as ck inner join applications as ca on ca.id = ck.application_id
  where ck.key_hash = ${p('credentialHash')} and ck.id = ${p('credentialKeyId')}
    and ck.environment = ${p('credentialEnvironment')} and ck.scopes = ${p('credentialScopes')} and ck.revoked = 0
    and (ck.expires_at is null or ck.expires_at > ${p('credentialNow')})
    and ca.id = ${p('credentialApplicationId')} and ca.name = ${p('credentialApplicationName')}
    and ca.workspace_id = ${p('credentialWorkspaceId')} and ca.approved = 1
    and ca.features = ${p('credentialFeatures')} and ca.allowed_universe_ids = ${p('credentialUniverses')})`;

/** A key's actor reused without a lookup, and the condition a statement must check for it (see keyCredentialHolds). */
export interface ReusedKey {
  readonly actor: ApiKeyActor;
  readonly credential: { readonly holds: typeof keyCredentialHolds; readonly params: KeyCredentialParams };
}
