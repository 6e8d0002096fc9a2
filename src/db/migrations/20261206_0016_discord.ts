import type { Kysely } from 'kysely';

/**
 * Discord, built in (docs/DISCORD.md):
 * - `discord_connections`: a workspace's Discord application (its id and Ed25519 public key) and the environment
 *   its commands read and write in; one row per connected workspace, written by provisioning. Several workspaces
 *   (one Discord server each) may share an application: `discord_connections_application` finds them by it when
 *   an interaction arrives.
 * - `webhook_endpoints.format`: `standard` (Standard Webhooks) or `discord` (a Discord channel webhook, posted
 *   embeds); existing endpoints are `standard`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('discord_connections')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id'))
    .addColumn('application_id', 'text', (c) => c.notNull())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('discord_connections_application')
    .on('discord_connections')
    .column('application_id')
    .execute();
  await db.schema
    .alterTable('webhook_endpoints')
    .addColumn('format', 'text', (c) => c.notNull().defaultTo('standard'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').dropColumn('format').execute();
  await db.schema.dropTable('discord_connections').execute();
}
