import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino, { type LoggerOptions } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { loggerOptions } from '../../../src/http/logging.ts';
import { DEFAULT_NOW, testConfig } from '../../helpers/app.ts';
import { checkedInject, type Inject } from '../../helpers/contract.ts';
import { bearer } from '../../helpers/fixtures.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { ask, cancel, dataOf, decide, listMine, listNotices, noticeBody, type NoticeData } from './helpers.ts';
import { useNoticeWorld } from './world.ts';

const REASON = 'private surgery recovery';
const NOTE = 'get well soon, private';

/** A logger at trace level that keeps every line it writes. */
function capturingLogger(lines: string[]) {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return pino({ ...(loggerOptions('trace') as LoggerOptions), level: 'trace' }, sink);
}

describe.each(STORE_KINDS)('an inactivity notice\'s reason and decision note stay private (%s)', (kind) => {
  const world = useNoticeWorld(kind);
  const lines: string[] = [];
  let app: FastifyInstance;
  let inject: Inject;

  beforeAll(async () => {
    app = await buildApp({ config: testConfig(), store: world.ctx.store, clock: world.ctx.clock, loggerInstance: capturingLogger(lines) });
    await app.ready();
    inject = await checkedInject(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('never in logs, the leaderboard, the active list or the integration context', async () => {
    world.ctx.clock.set(DEFAULT_NOW);
    const secret = world.fixture.keys.live.secret;
    const chatUserId = world.fixture.staff.alice.chatUserId!;
    const asked = dataOf<NoticeData>(await ask(inject, secret, noticeBody(DEFAULT_NOW, -1, 48, REASON), { chatUserId })).notice;
    dataOf(await decide(inject, world.token, 'approve', asked.id, { body: { note: NOTE } }));
    const refused = await ask(inject, secret, noticeBody(DEFAULT_NOW, 0, 2, REASON), { chatUserId });
    expect(refused.statusCode).toBe(409);
    expect(dataOf(await listMine(inject, secret, { chatUserId }))).toMatchObject({ notices: [{ reason: REASON, decisionNote: NOTE }] });
    expect((await listNotices(inject, world.token, '?status=approved')).body).toContain(REASON);

    const reads = ['/v1/activity/leaderboard?period=week', '/v1/activity/shifts/active', '/v1/integration'];
    for (const url of reads) {
      const res = await inject({ method: 'GET', url, headers: bearer(secret) });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect(res.body).not.toContain(REASON);
      expect(res.body).not.toContain(NOTE);
    }
    dataOf(await cancel(inject, secret, asked.id, { chatUserId }));

    const log = lines.join('');
    expect(log).toContain('/v1/staff/me/inactivity-notices');
    expect(log).not.toContain(REASON);
    expect(log).not.toContain(NOTE);
  });
});
