/**
 * `npm run docs:generate`: redraws what docs/ARCHITECTURE.md and docs/DATA.md show of the code, after a change of
 * imports or of statements: the module drawing, and each table's readers (its owner stays as the document says:
 * that is a decision, which test/db/table-owners.test.ts holds the code to).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { moduleDrawing } from '../test/helpers/imports.ts';
import { moduleOf, tableUses } from '../test/helpers/statements.ts';

const architecture = new URL('../docs/ARCHITECTURE.md', import.meta.url);
const text = readFileSync(architecture, 'utf8');
const start = text.indexOf('```text\n', text.indexOf('## Modules and their direction')) + '```text\n'.length;
const end = text.indexOf('```', start);
writeFileSync(architecture, `${text.slice(0, start)}${moduleDrawing().join('\n')}\n${text.slice(end)}`);

const data = new URL('../docs/DATA.md', import.meta.url);
const uses = tableUses();
const rows = readFileSync(data, 'utf8').replace(/^\| `([a-z_0-9]+)` \| `([^`]+)` \| .* \|$/gm, (_row, table: string, owner: string) => {
  const readers = [...new Set(uses.filter((u) => u.kind === 'read' && u.table === table).map((u) => moduleOf(u.file)))]
    .filter((module) => module !== owner)
    .sort();
  return `| \`${table}\` | \`${owner}\` | ${readers.map((r) => `\`${r}\``).join(', ') || '—'} |`;
});
writeFileSync(data, rows);
