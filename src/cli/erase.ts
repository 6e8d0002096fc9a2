import { parseCommand, required } from './args.ts';
import type { Kind } from './values.ts';
import { systemClock } from '../shared/clock.ts';
import { loadConfig } from '../shared/config.ts';
import { openExistingStore } from './store.ts';
import { eraseGameUser, GAME_USER_ID_PATTERN } from '../features/erasure/service.ts';
import { upgradeStore } from '../runtime/upgrade.ts';
import { progressOnStderr } from './progress.ts';

export const ERASE_USAGE = `  erase --game-user-id <id>
                        erase a game user's personal data (submissions, staff profile, stored copies) in one
                        transaction; prints the counts and ids of the rows changed (never the erased values)
`;

/** A game user id: 1 to 32 digits, as the game platforms number their users. */
const gameUserId: Kind<string> = {
  description: '1 to 32 digits',
  parse: (raw) => (GAME_USER_ID_PATTERN.test(raw) ? raw : undefined),
};

/** `erase --game-user-id <id>`: on the configured database (migrated first); JSON on stdout. */
export async function erase(args: readonly string[]): Promise<number> {
  const { values, overrides } = parseCommand('erase', args, { options: { 'game-user-id': required(gameUserId) } });
  const store = openExistingStore(loadConfig(process.env, overrides).databaseUrl, overrides);
  try {
    await upgradeStore(store);
    const progress = progressOnStderr('erase');
    const result = await eraseGameUser(store, systemClock, values['game-user-id'], progress.report).finally(progress.stop);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
