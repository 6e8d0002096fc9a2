import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackgroundThread } from '../../src/background/thread.ts';
import { CHECKPOINTER, startCheckpointer } from '../../src/db/checkpointer.ts';
import { openStore, type Store } from '../../src/db/connect.ts';
import { GroupCommit } from '../../src/db/group-commit.ts';
import { SqliteDatabase } from '../../src/db/sqlite-driver.ts';
import type { Database } from '../../src/db/types.ts';
import type { DestinationOptions } from '../../src/webhooks/destination.ts';
import { startThreadSender } from '../../src/webhooks/sender-thread.ts';
import { eventually, Receiver } from '../webhooks/receiver.ts';

const SECRET = 'whsec_c2hhcmVkLXRocmVhZC10ZXN0LXNlY3JldA==';
const DESTINATION: DestinationOptions = {
  timeoutMs: 10_000,
  allowPrivateNetworks: true,
  excerptBytes: 256,
  maxSocketsPerOrigin: 4,
};

let receiver: Receiver;
let dir: string;
beforeAll(async () => {
  receiver = await Receiver.start();
  dir = mkdtempSync(join(tmpdir(), 'wsg-background-'));
});
afterAll(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A file store whose checkpoints run on `thread` every 40 ms, with an empty `filler` table. */
async function fillerStore(name: string, thread: BackgroundThread): Promise<{ store: Store; filename: string }> {
  const filename = join(dir, `${name}.db`);
  const store = openStore(`sqlite:${filename}`, {
    backgroundCheckpoints: { intervalMs: 40, restartPages: 4_096 },
    backgroundThread: thread,
  });
  await sql`create table filler (id integer primary key, body text not null)`.execute(store.db);
  return { store, filename };
}

/** Writes about 2 MB through the log and resolves once the checkpoints have copied it into the database file. */
async function checkpointed(store: Store, filename: string): Promise<void> {
  const before = statSync(filename).size;
  for (let i = 0; i < 100; i += 1) {
    await sql`insert into filler (body) values (${'x'.repeat(20_000)})`.execute(store.db);
  }
  await eventually(() => statSync(filename).size - before > 1_500_000, 'the checkpoints to copy the log');
}

function delivery(path: string, eventId: string) {
  const body = JSON.stringify({ type: 'test', data: {} });
  return { url: receiver.endpoint(path, SECRET), eventId, secret: SECRET, body };
}

describe('the background thread', () => {
  it('runs the checkpoints and the webhook sends on one thread, each on as long as it is open', async () => {
    const thread = new BackgroundThread();
    const { store, filename } = await fillerStore('shared', thread);
    const sender = startThreadSender(DESTINATION, thread);
    try {
      const outcome = await sender.send(delivery('/shared', 'evt_shared_1'));
      expect(outcome.status).toBe(204);
      expect(receiver.acknowledged('/shared')).toEqual(['evt_shared_1']);
      await checkpointed(store, filename);
      expect(thread.started).toBe(1);
      expect(thread.running).toBe(true);

      // The sender closes; the checkpoints go on on the same thread.
      await sender.close();
      expect(thread.running).toBe(true);
      await checkpointed(store, filename);
      expect(thread.started).toBe(1);
    } finally {
      await sender.close();
      await store.close();
    }
    // The last service closed: the thread has exited.
    expect(thread.running).toBe(false);
  });

  it('when the thread dies, every service on it is told; the sender and the checkpointer start it again', async () => {
    const thread = new BackgroundThread();
    const { store, filename } = await fillerStore('crash', thread);
    const sender = startThreadSender(DESTINATION, thread);
    try {
      receiver.behaviour = ({ path }) => (path === '/slow' ? 'hang' : 204);
      const onTheWire = sender.send(delivery('/slow', 'evt_slow'));
      await receiver.waitFor((r) => r.at('/slow').length === 1, 'the slow delivery');
      // A service that cannot start (its database's folder does not exist) ends the thread it runs on.
      let exited = false;
      thread.start(
        CHECKPOINTER,
        { filename: join(dir, 'missing', 'gateway.db'), intervalMs: 40, restartPages: 4_096 },
        { onMessage: () => undefined, onExit: () => (exited = true) },
      );
      const outcome = await onTheWire;
      expect(outcome.status).toBeNull();
      expect(outcome.error).toBe('the sending thread stopped');
      await eventually(() => exited, 'the failed service to be told');
      expect(thread.running).toBe(false);

      const again = await sender.send(delivery('/after', 'evt_after'));
      expect(again.status).toBe(204);
      // The checkpointer comes back a second later, on the thread the sender started: the log is copied again
      // (nothing else would: the store's own threshold is far above what this writes).
      await checkpointed(store, filename);
      expect(thread.started).toBe(2);
    } finally {
      receiver.behaviour = () => 204;
      receiver.releaseHanging();
      await sender.close();
      await store.close();
    }
    expect(thread.running).toBe(false);
  });

  it('a checkpointer that cannot start is started again later and later, and no more once stopped', async () => {
    const thread = new BackgroundThread();
    const memory = new SqliteDatabase(':memory:');
    const writer = new GroupCommit(new Kysely<Database>({ dialect: new SqliteDialect({ database: memory }) }));
    // Its database's folder does not exist: each start ends the thread at once.
    const data = { filename: join(dir, 'missing', 'gateway.db'), intervalMs: 40, restartPages: 4_096 };
    const stop = startCheckpointer(data, writer, thread, { firstMs: 50, maxMs: 800, resetAfterMs: 60_000 });
    // Starts at about 0, 50, 150, 350, 750 and 1,550 ms (plus the time each thread takes to fail): six at most in
    // 2 s, where a fixed 50 ms would have made about ten.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const started = thread.started;
    expect(started).toBeGreaterThanOrEqual(3);
    expect(started).toBeLessThanOrEqual(6);
    await stop();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(thread.started).toBe(started);
    expect(thread.running).toBe(false);
    memory.close();
  });
});
