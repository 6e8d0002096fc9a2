import { optional, parseCommand, required, UsageError } from './args.ts';
import { uuid } from './values.ts';
import { loadConfig, type ConfigOverrides } from '../shared/config.ts';
import type { Store } from '../db/connect.ts';
import { openExistingStore } from './store.ts';
import { upgradeStore } from '../runtime/upgrade.ts';
import { COMMANDS } from '../features/discord/commands.ts';
import {
  DEFAULT_DISCORD_API_URL,
  DiscordRegistrationError,
  registerCommands,
  registrationTarget,
} from '../features/discord/register.ts';

export const DISCORD_USAGE = `  discord register --workspace <id>
                        replace the workspace's Discord server's slash commands with the gateway's; the bot token
                        from DISCORD_BOT_TOKEN (never stored or printed), Discord at DISCORD_API_URL (default
                        ${DEFAULT_DISCORD_API_URL}). Prints { registered: [names] }; Discord's error on stderr, exit 1
  discord commands [--workspace <id>]
                        print the commands' JSON that register sends, without sending it
`;

async function onStore<T>(overrides: ConfigOverrides, work: (store: Store) => Promise<T>): Promise<T> {
  const store = openExistingStore(loadConfig(process.env, overrides).databaseUrl, overrides);
  try {
    await upgradeStore(store);
    return await work(store);
  } finally {
    await store.close();
  }
}

function failed(message: string): number {
  process.stderr.write(`workspace-gateway: ${message}\n`);
  return 1;
}

/** `discord register …` and `discord commands …` (docs/DISCORD.md). */
export async function runDiscordCommand(args: readonly string[]): Promise<number> {
  const [subcommand, ...rest] = args;
  switch (subcommand) {
    case 'register': {
      const { values, overrides } = parseCommand('discord register', rest, { options: { workspace: required(uuid) } });
      const token = process.env.DISCORD_BOT_TOKEN ?? '';
      if (token.trim() === '') return failed('DISCORD_BOT_TOKEN is not set: put the Discord bot token in it (it is never stored)');
      try {
        const target = await onStore(overrides, (store) => registrationTarget(store.db, values.workspace));
        const apiUrl = process.env.DISCORD_API_URL || DEFAULT_DISCORD_API_URL;
        const registered = await registerCommands({ apiUrl, token: token.trim(), ...target });
        process.stdout.write(`${JSON.stringify({ registered }, null, 2)}\n`);
        return 0;
      } catch (error) {
        if (error instanceof DiscordRegistrationError) return failed(error.message);
        throw error;
      }
    }
    case 'commands': {
      const { values, overrides } = parseCommand('discord commands', rest, { options: { workspace: optional(uuid) } });
      if (values.workspace !== undefined) {
        const workspace = values.workspace;
        try {
          await onStore(overrides, (store) => registrationTarget(store.db, workspace));
        } catch (error) {
          if (error instanceof DiscordRegistrationError) return failed(error.message);
          throw error;
        }
      }
      process.stdout.write(`${JSON.stringify(COMMANDS, null, 2)}\n`);
      return 0;
    }
    default:
      throw new UsageError(`discord needs a subcommand:\n${DISCORD_USAGE}`);
  }
}
