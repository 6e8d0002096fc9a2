import { sql, type Kysely } from 'kysely';

/**
 * Signing in to the console (docs/API.md, "Console sign-in"):
 * - `members.chat_user_id`: the member's chat user id (provisioning), by which a chat bot's sign-in link finds the
 *   member; `members_chat_user` finds the member of a workspace by it.
 * - `console_sign_in_codes`: the one-time codes of sign-in links, stored only as their SHA-256 (`code_hash`), with
 *   the user they sign in, when they expire (10 minutes after they were made) and when they were used (null
 *   until then). `console_sign_in_codes_expires` lets the retention prune find old codes by age.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('members').addColumn('chat_user_id', 'text').execute();
  await db.schema
    .createIndex('members_chat_user')
    .on('members')
    .columns(['workspace_id', 'chat_user_id'])
    .where(sql.ref('chat_user_id'), 'is not', null)
    .execute();
  await db.schema
    .createTable('console_sign_in_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('console_sign_in_codes_expires').on('console_sign_in_codes').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('console_sign_in_codes').execute();
  await db.schema.dropIndex('members_chat_user').execute();
  await db.schema.alterTable('members').dropColumn('chat_user_id').execute();
}
