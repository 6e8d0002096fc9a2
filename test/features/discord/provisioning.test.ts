import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../helpers/app.ts';
import { buildFixture, seed, type Fixture, type WorkspaceFixture } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { ProvisioningError } from '../../../src/provisioning/apply.ts';
import type { ProvisioningDocument } from '../../../src/provisioning/schema.ts';
import { discordApplication, signedInteraction, type DiscordApplication } from './helpers.ts';

async function refusal(ctx: TestContext, document: ProvisioningDocument): Promise<string[]> {
  const error: unknown = await seed(ctx, { document }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProvisioningError);
  return (error as ProvisioningError).issues.map((issue) => `${issue.path}: ${issue.message}`);
}

describe.each(STORE_KINDS)('provisioning the discord block (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: Fixture & { second: WorkspaceFixture };
  let app: DiscordApplication;
  const connections = () => ctx.store.db.selectFrom('discord_connections').selectAll().orderBy('workspace_id').execute();
  const ping = async (application: DiscordApplication) => {
    const signed = signedInteraction(application, { id: '1', type: 1 }, ctx.clock.now());
    return (await ctx.inject({ method: 'POST', url: signed.url, headers: signed.headers, payload: signed.payload })).statusCode;
  };

  beforeEach(async () => {
    ctx = await createTestContext(kind);
    fixture = buildFixture({ secondWorkspace: true });
    app = discordApplication();
  });
  afterEach(async () => {
    await ctx.close();
  });

  const withDiscord = (discord: Record<string, unknown> | undefined, second?: Record<string, unknown>): ProvisioningDocument => {
    const [first, other] = fixture.document.workspaces;
    return {
      workspaces: [
        { ...first!, ...(discord ? { discord } : {}) } as ProvisioningDocument['workspaces'][number],
        { ...other!, ...(second ? { discord: second } : {}) } as ProvisioningDocument['workspaces'][number],
      ],
    };
  };

  it('stores the application, its key in lower case and the environment (default live); the application answers', async () => {
    await seed(ctx, { document: withDiscord({ applicationId: app.applicationId, publicKey: app.publicKey.toUpperCase() }) });
    expect(await connections()).toEqual([
      expect.objectContaining({ workspace_id: fixture.ids.workspaceId, application_id: app.applicationId, public_key: app.publicKey, environment: 'live' }),
    ]);
    expect(await ping(app)).toBe(200);
  });

  it('refuses an applicationId that is not 1..32 digits and a publicKey that is not 64 hex characters', async () => {
    const issues = await refusal(ctx, withDiscord({ applicationId: '12a', publicKey: 'zz'.repeat(32) }));
    expect(issues.join('\n')).toMatch(/discord\.applicationId/);
    expect(issues.join('\n')).toMatch(/discord\.publicKey/);
    expect(await refusal(ctx, withDiscord({ applicationId: '1'.repeat(33), publicKey: app.publicKey }))).toHaveLength(1);
    expect(await refusal(ctx, withDiscord({ applicationId: '1', publicKey: app.publicKey.slice(2) }))).toHaveLength(1);
    expect(await refusal(ctx, withDiscord({ applicationId: '1', publicKey: app.publicKey, environment: 'staging' }))).toHaveLength(1);
    expect(await connections()).toEqual([]);
  });

  it('refuses discord without chat.guildId, writing nothing', async () => {
    const document = withDiscord({ applicationId: app.applicationId, publicKey: app.publicKey });
    document.workspaces[0] = { ...document.workspaces[0]!, chat: { guildId: null, status: 'disconnected' } };
    expect((await refusal(ctx, document)).join('\n')).toMatch(/\$\.workspaces\[0\]\.discord: needs the workspace's chat\.guildId/);
    expect(await ctx.store.db.selectFrom('workspaces').select('id').execute()).toEqual([]);
  });

  it('workspaces sharing an application must carry one public key, in the document and against the store', async () => {
    const other = discordApplication(app.applicationId);
    const differing = withDiscord({ applicationId: app.applicationId, publicKey: app.publicKey }, { applicationId: app.applicationId, publicKey: other.publicKey });
    expect((await refusal(ctx, differing)).join('\n')).toMatch(/workspaces\[1\]\.discord\.publicKey: differs from/);
    // Stored: the first workspace; a later document of the second alone with another key is refused.
    await seed(ctx, { document: { workspaces: [withDiscord({ applicationId: app.applicationId, publicKey: app.publicKey }).workspaces[0]!] } });
    const secondOnly = { workspaces: [withDiscord(undefined, { applicationId: app.applicationId, publicKey: other.publicKey }).workspaces[1]!] };
    expect((await refusal(ctx, secondOnly)).join('\n')).toMatch(/differs from the key of the stored workspace/);
    expect(await connections()).toHaveLength(1);
    // One document may change the key of all of them at once.
    await seed(ctx, { document: withDiscord({ applicationId: app.applicationId, publicKey: other.publicKey }, { applicationId: app.applicationId, publicKey: other.publicKey }) });
    expect((await connections()).map((row) => row.public_key)).toEqual([other.publicKey, other.publicKey]);
    expect(await ping(app)).toBe(401);
    expect(await ping(other)).toBe(200);
  });

  it('refuses two workspaces of one application in the same guild', async () => {
    const document = withDiscord({ applicationId: app.applicationId, publicKey: app.publicKey }, { applicationId: app.applicationId, publicKey: app.publicKey });
    document.workspaces[1] = { ...document.workspaces[1]!, chat: { ...document.workspaces[0]!.chat!, status: 'connected' } };
    expect((await refusal(ctx, document)).join('\n')).toMatch(/already answers in guild/);
    expect(await connections()).toEqual([]);
  });

  it('removing discord from a later document disconnects the workspace', async () => {
    await seed(ctx, { document: withDiscord({ applicationId: app.applicationId, publicKey: app.publicKey, environment: 'test' }) });
    expect((await connections())[0]?.environment).toBe('test');
    await seed(ctx, { document: withDiscord(undefined) });
    expect(await connections()).toEqual([]);
    expect(await ping(app)).toBe(401);
  });
});
