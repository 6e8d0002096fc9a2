import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApplicationCommandOptionType } from 'discord-api-types/v10';
import { COMMANDS } from '../../../src/features/discord/commands.ts';
import { ROOT } from '../../helpers/cli.ts';

/** docs/DISCORD.md's table of commands is read against the one definition `discord register` sends. */
describe('docs/DISCORD.md', () => {
  const doc = readFileSync(`${ROOT}docs/DISCORD.md`, 'utf8');
  const table = doc.slice(doc.indexOf('## The commands'), doc.indexOf('## Privacy'));

  it('lists every command and subcommand, with every option, and no other', () => {
    const documented = [...table.matchAll(/^\| `\/([a-z]+(?: [a-z]+)?)`/gm)].map((m) => m[1]);
    const defined = COMMANDS.flatMap((command) => {
      const subs = (command.options ?? []).filter((o) => o.type === ApplicationCommandOptionType.Subcommand);
      return subs.length > 0 ? subs.map((sub) => `${command.name} ${sub.name}`) : [command.name];
    });
    expect(documented).toEqual(defined);
    for (const command of COMMANDS) {
      for (const option of command.options ?? []) {
        const names = option.type === ApplicationCommandOptionType.Subcommand ? (option.options ?? []).map((inner) => inner.name) : [option.name];
        for (const name of names) expect(table, `${command.name}: option ${name}`).toContain(`\`${name}\``);
      }
    }
  });

  it('names the address to paste and the register command', () => {
    expect(doc).toContain('https://<your gateway>/v1/discord/applications/<Application ID>/interactions');
    expect(doc).toContain('npx workspace-gateway discord register --workspace <workspace id>');
  });
});
