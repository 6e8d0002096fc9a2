import { optional, parseCommand, required, UsageError } from './args.ts';
import { oneOf, uuid, wholeNumber } from './values.ts';
import { systemClock } from '../shared/clock.ts';
import { loadConfig, type ConfigOverrides } from '../shared/config.ts';
import type { Store } from '../db/connect.ts';
import { openExistingStore } from './store.ts';
import { upgradeStore } from '../runtime/upgrade.ts';
import { DELIVERY_STATUSES, listDeliveries, redeliver } from '../webhooks/admin.ts';

export const WEBHOOKS_USAGE = `  webhooks deliveries --workspace <id> [--status pending|delivered|failed] [--limit n]
                        a workspace's recent webhook deliveries (JSON)
  webhooks redeliver <eventId> [--endpoint <id>]
                        send an event again to its endpoints (or to one endpoint)
`;

const EVENT_ID = { name: 'event id', kind: uuid };

/** Runs `work` on the configured database (migrated first) and prints its result as JSON. */
async function onStore(overrides: ConfigOverrides, work: (store: Store) => Promise<unknown>): Promise<number> {
  const store = openExistingStore(loadConfig(process.env, overrides).databaseUrl, overrides);
  try {
    await upgradeStore(store);
    process.stdout.write(`${JSON.stringify(await work(store), null, 2)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}

/** `webhooks deliveries …` and `webhooks redeliver …`: JSON on stdout. */
export async function runWebhooksCommand(args: readonly string[]): Promise<number> {
  const [subcommand, ...rest] = args;
  switch (subcommand) {
    case 'deliveries': {
      const { values, overrides } = parseCommand('webhooks deliveries', rest, {
        options: {
          workspace: required(uuid),
          status: optional(oneOf(DELIVERY_STATUSES)),
          limit: optional(wholeNumber({ min: 1, max: 1000 })),
        },
      });
      const { workspace: workspaceId, status, limit = 50 } = values;
      return onStore(overrides, async (store) => ({
        deliveries: await listDeliveries(store.db, { workspaceId, limit, ...(status !== undefined ? { status } : {}) }),
      }));
    }
    case 'redeliver': {
      const { positional: eventId, values, overrides } = parseCommand('webhooks redeliver', rest, {
        positional: EVENT_ID,
        options: { endpoint: optional(uuid) },
      });
      const endpointId = values.endpoint;
      return onStore(overrides, async (store) => ({
        eventId,
        deliveries: await redeliver(store.write, systemClock.now(), {
          eventId,
          ...(endpointId !== undefined ? { endpointId } : {}),
        }),
      }));
    }
    default:
      throw new UsageError(`webhooks needs a subcommand:\n${WEBHOOKS_USAGE}`);
  }
}
