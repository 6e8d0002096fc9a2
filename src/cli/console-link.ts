import { parseCommand, required } from './args.ts';
import { text } from './values.ts';
import { DEMO_DATABASE_URL } from './demo-document.ts';
import { systemClock } from '../shared/clock.ts';
import { loadConfig } from '../shared/config.ts';
import { openExistingStore } from './store.ts';
import { serverUrl } from '../http/openapi.ts';
import { upgradeStore } from '../runtime/upgrade.ts';
import { createConsoleService } from '../features/console/service.ts';

export const CONSOLE_LINK_USAGE = `  console-link --user <userId> [--demo]
                        a one-time console sign-in link for that dashboard user, usable once within 10 minutes
                        (the user must be a member of a workspace: exit 1 with a message otherwise); its address
                        is PUBLIC_BASE_URL, else http://HOST:PORT. Prints { url, expiresAt }; send it privately.
                        --demo: for a running demo, on its database (${DEMO_DATABASE_URL} unless DATABASE_URL or
                        --database-url says otherwise); give the --port the demo printed
`;

/** `console-link --user <userId>`: a sign-in link, as a chat bot gets one (docs/API.md, "Console sign-in"). */
export async function consoleLink(args: readonly string[]): Promise<number> {
  // `--demo` takes no value, so it is taken out before the strict parse of the others (as `migrate --status`).
  const demo = args.includes('--demo');
  const parsed = parseCommand('console-link', args.filter((arg) => arg !== '--demo'), { options: { user: required(text) } });
  const { values } = parsed;
  const overrides = demo
    ? { ...parsed.overrides, databaseUrl: parsed.overrides.databaseUrl ?? process.env.DATABASE_URL ?? DEMO_DATABASE_URL }
    : parsed.overrides;
  const config = loadConfig(process.env, overrides);
  const store = openExistingStore(config.databaseUrl, overrides);
  try {
    await upgradeStore(store);
    const service = createConsoleService({ store, clock: systemClock, config });
    const link = await service.linkForUser(values.user, serverUrl(config.publicBaseUrl, null, config));
    process.stdout.write(`${JSON.stringify(link, null, 2)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
