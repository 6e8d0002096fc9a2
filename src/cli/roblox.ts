import { parseArgs } from 'node:util';
import { optional, parseCommand, required, UsageError } from './args.ts';
import { text, type Kind } from './values.ts';
import { DEFAULT_ROBLOX_API_URL, GroupRolesError, listGroupRoles, ranksOfRoles } from '../features/ranks/group-roles.ts';

const KEY_VARIABLE = 'ROBLOX_API_KEY';

export const ROBLOX_USAGE = `  roblox roles --group <id> [--api-key-env <NAME>]
                        list the Roblox group's roles through Open Cloud (ROBLOX_API_URL, default
                        ${DEFAULT_ROBLOX_API_URL}) and print them as the provisioning document's "ranks", by rank
                        (the guest role left out); the API key from ${KEY_VARIABLE}, or the variable --api-key-env
                        names (never an argument; never stored or printed). Opens no database. Roblox's error on
                        stderr, exit 1
`;

/** A Roblox group id: 1 to 20 digits, as the provisioning document takes it. */
const groupId: Kind<string> = {
  description: '1 to 20 digits',
  parse: (raw) => (/^\d{1,20}$/.test(raw) ? raw : undefined),
};

function failed(message: string): number {
  process.stderr.write(`workspace-gateway: ${message}\n`);
  return 1;
}

/**
 * Refuses, without repeating what was given, a key put on the command line: as `--api-key` or as an argument
 * (either would stay in the shell's history, and a message that quoted it would print it).
 */
function refuseKeyArguments(args: readonly string[]): void {
  const names = ['group', 'api-key-env', 'api-key', 'port', 'host', 'database-url'];
  const options = Object.fromEntries(names.map((name) => [name, { type: 'string' as const }]));
  const { tokens } = parseArgs({ args: [...args], options, strict: false, allowPositionals: true, tokens: true });
  const advice = `put the key in ${KEY_VARIABLE} (or the variable --api-key-env names), not on the command line`;
  if (tokens.some((token) => token.kind === 'option' && token.name === 'api-key')) {
    throw new UsageError(`roblox roles takes no --api-key: ${advice}`);
  }
  // An unknown option is named by the parse that follows (which names options, never values).
  if (tokens.some((token) => token.kind === 'option' && !names.includes(token.name))) return;
  if (tokens.some((token) => token.kind === 'positional')) throw new UsageError(`roblox roles takes no arguments: ${advice}`);
}

/** `roblox roles --group <id>` (docs/ROBLOX.md, "Map the group's roles to ranks"). */
export async function runRobloxCommand(args: readonly string[]): Promise<number> {
  const [subcommand, ...rest] = args;
  if (subcommand !== 'roles') throw new UsageError(`roblox needs a subcommand:\n${ROBLOX_USAGE}`);
  refuseKeyArguments(rest);
  const { values } = parseCommand('roblox roles', rest, { options: { group: required(groupId), 'api-key-env': optional(text) } });
  const variable = values['api-key-env'];
  if (variable !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) {
    throw new UsageError('--api-key-env must be the name of an environment variable (letters, digits and _), not the key');
  }
  const apiKey = (process.env[variable ?? KEY_VARIABLE] ?? '').trim();
  if (apiKey === '') {
    return failed(
      variable === undefined
        ? `${KEY_VARIABLE} is not set: put the group's Open Cloud API key in it (it is never stored or printed)`
        : 'the variable --api-key-env names is not set: put the group\'s Open Cloud API key in it (it is never stored or printed)',
    );
  }
  try {
    const apiUrl = process.env.ROBLOX_API_URL || DEFAULT_ROBLOX_API_URL;
    const roles = await listGroupRoles({ apiUrl, apiKey, groupId: values.group });
    process.stdout.write(`${JSON.stringify(ranksOfRoles(roles), null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof GroupRolesError) return failed(error.message);
    throw error;
  }
}
