/**
 * Several real `serve` processes on one PostgreSQL schema, for the tests of several instances. A trigger added to
 * the test schema logs each active -> completed transition of a shift, with the application_name of the instance
 * that made it (`gateway-1`, `gateway-2`, ...), in `shift_completions`.
 */
import type pg from 'pg';
import { expect } from 'vitest';
import { UNIVERSE_ID } from '../helpers/fixtures.ts';
import { queryRows } from '../helpers/postgres.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/stores.ts';
import { killAll, seedLoadWorld, send, startGateway, type Gateway, type LoadWorld, type WireRequest, type WireResponse } from './serving.ts';

export interface ClusterOptions {
  readonly instances: number;
  readonly shiftTimeoutSeconds: number;
  readonly extraStaff: number;
  readonly submissions: number;
  /** Settings for the instances' database sessions (`-c name=value`), e.g. a longer `deadlock_timeout`. */
  readonly sessionSettings?: Readonly<Record<string, string>>;
}

export interface Cluster {
  readonly database: TestDatabase;
  readonly world: LoadWorld;
  /** The test schema's name, to qualify tables in `query`. */
  readonly schema: string;
  readonly gateways: readonly Gateway[];
  /** Sends the requests at once, request i to instance i mod n. */
  fanOut(list: readonly WireRequest[]): Promise<WireResponse[]>;
  query<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  nextStaff(): LoadWorld['staff'][number];
  nextSubmission(): LoadWorld['submissions'][number];
  startBody(gameUserId: string, serverId: string): Record<string, string>;
  /** How many requests `fanOut` has sent. */
  requests(): number;
  /** Stops every instance (their exit codes) and drops the schema. */
  stop(): Promise<(number | null)[]>;
}

export const newKey = (label: string): string =>
  `inst-${label}-${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;

export const tally = (values: readonly string[]): Record<string, number> =>
  values.reduce<Record<string, number>>((acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }), {});

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const database = await createTestDatabase('postgres');
  const world = await seedLoadWorld(database, { extraStaff: options.extraStaff, submissions: options.submissions });
  const schema = /search_path=(\w+)/.exec(new URL(database.url).searchParams.get('options') ?? '')?.[1] ?? '';
  expect(schema).toMatch(/^t_/);

  const query = <T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> =>
    queryRows<T>(database.url, text, values);

  await query(`
    create table ${schema}.shift_completions (
      shift_id text not null, by_instance text not null, end_reason text, at timestamptz not null default clock_timestamp());
    create function ${schema}.log_shift_completion() returns trigger language plpgsql as $$
    begin
      insert into ${schema}.shift_completions (shift_id, by_instance, end_reason)
      values (new.id, current_setting('application_name'), new.end_reason);
      return new;
    end $$;
    create trigger shifts_completion after update on ${schema}.shifts for each row
      when (old.status = 'active' and new.status = 'completed') execute function ${schema}.log_shift_completion();
  `);
  const gateways = await Promise.all(
    Array.from({ length: options.instances }, (_, i) => {
      const url = new URL(database.url);
      url.searchParams.set('application_name', `gateway-${i + 1}`);
      const settings = Object.entries(options.sessionSettings ?? {}).map(([name, value]) => `-c ${name}=${value}`);
      url.searchParams.set('options', [url.searchParams.get('options') ?? '', ...settings].join(' ').trim());
      return startGateway({
        name: `gateway-${i + 1}`,
        databaseUrl: url.toString(),
        env: { SHIFT_TIMEOUT_SECONDS: String(options.shiftTimeoutSeconds), RATE_LIMIT_MAX: '0', LOG_LEVEL: 'silent' },
      });
    }),
  );

  let requests = 0;
  let staffCursor = 0;
  let submissionCursor = 0;
  return {
    database,
    world,
    schema,
    gateways,
    query,
    async fanOut(list) {
      requests += list.length;
      return Promise.all(list.map((request, i) => send((gateways[i % gateways.length] as Gateway).baseUrl, request)));
    },
    nextStaff() {
      const staff = world.staff[staffCursor];
      staffCursor += 1;
      if (!staff) throw new Error('not enough staff seeded');
      return staff;
    },
    nextSubmission() {
      const submission = world.submissions[submissionCursor];
      submissionCursor += 1;
      if (!submission) throw new Error('not enough submissions seeded');
      return submission;
    },
    startBody: (gameUserId, serverId) => ({
      gameUserId,
      universeId: UNIVERSE_ID,
      placeId: '7',
      serverId,
      startedAt: new Date().toISOString(),
    }),
    requests: () => requests,
    async stop() {
      const exitCodes = await Promise.all(gateways.map((g) => g.stop().catch(() => null)));
      await killAll();
      await database.drop().catch(() => undefined);
      return exitCodes;
    },
  };
}
