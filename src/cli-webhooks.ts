import { parseArgs as parseNodeArgs } from 'node:util';
import { UsageError } from './cli-args.ts';
import { systemClock } from './clock.ts';
import { loadConfig } from './config.ts';
import { openStore } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { isUuid } from './ids.ts';
import {
  DELIVERY_STATUSES,
  listDeliveries,
  redeliver,
  type DeliveryStatus,
} from './features/webhooks/operations.ts';

export const WEBHOOKS_USAGE = `  webhooks deliveries --workspace <id> [--status pending|delivered|failed] [--limit n]
                        a workspace's recent webhook deliveries (JSON)
  webhooks redeliver <eventId> [--endpoint <id>]
                        send an event again to its endpoints (or to one endpoint)
`;

const OPTIONS = {
  workspace: { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  endpoint: { type: 'string' },
  'database-url': { type: 'string' },
} as const;

function uuid(name: string, value: string | undefined): string {
  if (value === undefined || !isUuid(value)) throw new UsageError(`${name} must be a uuid`);
  return value.toLowerCase();
}

/** `webhooks deliveries …` and `webhooks redeliver …`: JSON on stdout. */
export async function runWebhooksCommand(argv: readonly string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseNodeArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const [subcommand, ...rest] = positionals;
  const config = loadConfig(process.env, { databaseUrl: values['database-url'] });
  const run = async (work: (store: ReturnType<typeof openStore>) => Promise<unknown>) => {
    const store = openStore(config.databaseUrl);
    try {
      await migrateToLatest(store);
      process.stdout.write(`${JSON.stringify(await work(store), null, 2)}\n`);
      return 0;
    } finally {
      await store.close();
    }
  };
  switch (subcommand) {
    case 'deliveries': {
      if (rest.length > 0) throw new UsageError(`unexpected argument ${rest[0]}`);
      const workspaceId = uuid('--workspace', values.workspace);
      const status = values.status;
      if (status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(status)) {
        throw new UsageError(`--status must be one of ${DELIVERY_STATUSES.join(', ')}`);
      }
      const limitRaw = values.limit ?? '50';
      if (!/^\d+$/.test(limitRaw) || Number(limitRaw) < 1 || Number(limitRaw) > 1000) {
        throw new UsageError('--limit must be an integer between 1 and 1000');
      }
      return run(async (store) => ({
        deliveries: await listDeliveries(store.db, {
          workspaceId,
          limit: Number(limitRaw),
          ...(status !== undefined ? { status: status as DeliveryStatus } : {}),
        }),
      }));
    }
    case 'redeliver': {
      if (rest.length !== 1) throw new UsageError('redeliver needs one event id: webhooks redeliver <eventId>');
      const eventId = uuid('the event id', rest[0]);
      const endpointId = values.endpoint === undefined ? undefined : uuid('--endpoint', values.endpoint);
      return run(async (store) => ({
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
