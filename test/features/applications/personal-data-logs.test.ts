import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino, { type LoggerOptions } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { loggerOptions } from '../../../src/http/logging.ts';
import { createTestContext, testConfig, type TestContext } from '../../helpers/app.ts';
import { checkedInject, type Inject } from '../../helpers/contract.ts';
import { STORE_KINDS } from '../../helpers/stores.ts';
import { get, seedIntakeFixture, submit, type IntakeFixture } from './intake-helpers.ts';

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

describe.each(STORE_KINDS)('applicants\' answers and identity never reach the log (%s)', (kind) => {
  let ctx: TestContext;
  let fixture: IntakeFixture;
  let app: FastifyInstance;
  let inject: Inject;
  const lines: string[] = [];

  beforeAll(async () => {
    ctx = await createTestContext(kind);
    fixture = await seedIntakeFixture(ctx);
    app = await buildApp({ config: testConfig(), store: ctx.store, clock: ctx.clock, loggerInstance: capturingLogger(lines) });
    await app.ready();
    inject = await checkedInject(app);
  });
  afterAll(async () => {
    await app?.close();
    await ctx?.close();
  });

  it('logs neither the answers, the applicant\'s names and ids, nor the id in an applicant\'s path', async () => {
    const applicant = { gameUserId: '918273645', gameUsername: 'secret_name', displayName: 'Hidden Person', chatUserId: '5647382910' };
    const answers = { why: 'my private reason', age: 42, tz: 'EU', rules: true };
    const secret = fixture.keys.live.secret;
    const ok = await submit(inject, secret, fixture.form.id, { applicant, answers });
    expect(ok.statusCode).toBe(200);
    const pending = await submit(inject, secret, fixture.form.id, { applicant, answers });
    expect(pending.statusCode).toBe(409);
    const refused = await submit(inject, secret, fixture.form.id, { applicant, answers: { ...answers, age: 'forty-two' } });
    expect(refused.statusCode).toBe(400);
    const status = await get(inject, secret, `/v1/applications/applicants/${applicant.gameUserId}/submissions`);
    expect(status.statusCode).toBe(200);

    const log = lines.join('');
    expect(log).toContain('/v1/applications/applicants/:gameUserId/submissions');
    for (const personal of ['918273645', 'secret_name', 'Hidden Person', '5647382910', 'my private reason', 'forty-two']) {
      expect(log).not.toContain(personal);
    }
  });
});
