import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GUILD_ID } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { command, discordApplication, signedInteraction } from './helpers.ts';
import { useDiscordWorld } from './world.ts';

describe.each(STORE_KINDS)('Discord interactions: the signature comes first (%s)', (kind) => {
  const world = useDiscordWorld(kind);
  const ping = () => ({ id: '1', type: 1, application_id: world.discord.applicationId, token: 't', version: 1 });

  async function post(signed: { url: string; headers: Record<string, string>; payload: string }) {
    return world.ctx.inject({ method: 'POST', url: signed.url, headers: signed.headers, payload: signed.payload });
  }

  it('a PING signed by the application\'s key gets { type: 1 }', async () => {
    const res = await post(signedInteraction(world.discord, ping(), world.ctx.clock.now()));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ type: 1 });
  });

  it('a signature by another key is 401 unauthenticated', async () => {
    const other = generateKeyPairSync('ed25519').privateKey;
    const res = await post(signedInteraction(world.discord, ping(), world.ctx.clock.now(), { key: other }));
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('unauthenticated');
  });

  it('a body changed after signing is 401', async () => {
    const signed = signedInteraction(world.discord, ping(), world.ctx.clock.now());
    const res = await post({ ...signed, payload: signed.payload.replace('"type":1', '"type": 1') });
    expect(res.statusCode).toBe(401);
  });

  it('a missing signature or timestamp is 401', async () => {
    const signed = signedInteraction(world.discord, ping(), world.ctx.clock.now());
    for (const header of ['x-signature-ed25519', 'x-signature-timestamp']) {
      const headers = { ...signed.headers };
      delete headers[header];
      expect((await post({ ...signed, headers })).statusCode).toBe(401);
    }
  });

  it('a timestamp more than 5 minutes from now is 401, either way; within 5 minutes it is answered', async () => {
    const now = world.ctx.clock.now();
    const at = (seconds: number) => signedInteraction(world.discord, ping(), now, { timestamp: Math.floor(now / 1000) + seconds });
    expect((await post(at(-301))).statusCode).toBe(401);
    expect((await post(at(301))).statusCode).toBe(401);
    expect((await post(at(-299))).statusCode).toBe(200);
  });

  it('an unknown application is 401, even with a valid signature by its own key', async () => {
    const stranger = discordApplication();
    expect((await post(signedInteraction(stranger, ping(), world.ctx.clock.now()))).statusCode).toBe(401);
    const notDigits = { ...signedInteraction(world.discord, ping(), world.ctx.clock.now()) };
    expect((await post({ ...notDigits, url: '/v1/discord/applications/abc/interactions' })).statusCode).toBe(401);
  });

  it('a signed command never reaches a command handler without a valid signature (nothing written)', async () => {
    const other = generateKeyPairSync('ed25519').privateKey;
    const interaction = command({ guildId: GUILD_ID, userId: world.fixture.staff.alice.chatUserId! }, 'loa', { start: '2026-03-12', end: '2026-03-12', reason: 'x' }, 'request');
    const res = await post(signedInteraction(world.discord, interaction, world.ctx.clock.now(), { key: other }));
    expect(res.statusCode).toBe(401);
    const notices = await world.ctx.store.db.selectFrom('inactivity_notices').select('id').execute();
    expect(notices).toEqual([]);
  });
});
