import { optional, parseCommand, required, UsageError } from './args.ts';
import { duration, text } from './values.ts';
import { systemClock } from '../shared/clock.ts';
import { loadConfig } from '../shared/config.ts';
import { openExistingStore } from './store.ts';
import { upgradeStore } from '../runtime/upgrade.ts';
import {
  DEFAULT_TOKEN_TTL_SECONDS,
  issueDashboardToken,
  MAX_TOKEN_TTL_SECONDS,
  obtainSigningKey,
} from '../auth/keys/dashboard-token.ts';

export const TOKENS_USAGE = `  tokens create --user <userId> [--ttl <duration>]
                        a dashboard token for that user (its workspaces are its memberships in the provisioning
                        document), signed by the gateway's own key; --ttl such as 8h or 30m (default 8h, at most
                        30d). The key is DASHBOARD_SIGNING_KEY when set (it wins: kept with your other secrets,
                        the same whichever database), else a random key generated on first use and stored in
                        the database. Prints { token, userId, expiresAt }
`;

/** `tokens create`: a dashboard token signed by the gateway's own key, printed as JSON. */
export async function tokens(args: readonly string[]): Promise<number> {
  const [action, ...rest] = args;
  if (action !== 'create') {
    throw new UsageError(
      action === undefined || action.startsWith('-') ? 'tokens needs an action: create' : `unknown tokens action "${action}"`,
    );
  }
  const { values, overrides } = parseCommand('tokens create', rest, {
    options: { user: required(text), ttl: optional(duration(MAX_TOKEN_TTL_SECONDS)) },
  });
  const config = loadConfig(process.env, overrides);
  const store = openExistingStore(config.databaseUrl, overrides);
  try {
    await upgradeStore(store);
    const now = systemClock.now();
    const key = await obtainSigningKey(store.db, config.dashboardSigningKey, now);
    const issued = await issueDashboardToken(key, {
      userId: values.user,
      ttlSeconds: values.ttl ?? DEFAULT_TOKEN_TTL_SECONDS,
      now,
    });
    process.stdout.write(`${JSON.stringify(issued, null, 2)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
