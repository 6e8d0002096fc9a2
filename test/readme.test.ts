import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT } from './helpers/cli.ts';
import { anchors, codeSnippets, invocations, links } from './helpers/markdown.ts';

// The README and the docs it links are what a newcomer reads first: every link must lead somewhere, and every
// command they print must run as printed.
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const read = (page: string): string => readFileSync(join(ROOT, page), 'utf8');
const README = read('README.md');

/** `npx workspace-gateway …` or `node bin/workspace-gateway.js …`, as the pages print a command of the CLI. */
const CLI = /(?:npx workspace-gateway|node bin\/workspace-gateway\.js)\s+/;

/** The CLI's own usage: each command's words, with the options its usage lines print. */
function usage(): { commands: Map<string, Set<string>>; common: Set<string> } {
  const help = execFileSync(process.execPath, [BIN, '--help'], { cwd: ROOT, encoding: 'utf8' });
  const commands = new Map<string, Set<string>>();
  const common = new Set<string>();
  let inOptions = false;
  for (const line of help.split('\n')) {
    if (line.startsWith('Options')) inOptions = true;
    const flags = [...line.matchAll(/--[a-z-]+/g)].map((m) => m[0]);
    if (inOptions) {
      for (const flag of flags) common.add(flag);
      continue;
    }
    const words = /^ {2}([a-z][a-z-]*(?: [a-z][a-z-]*)?)\b/.exec(line)?.[1];
    if (words !== undefined) commands.set(words, new Set([...(commands.get(words) ?? []), ...flags]));
  }
  return { commands, common };
}

describe('README and docs', () => {
  it.each(PAGES)('every relative link of %s resolves to a file, and every #anchor to a heading', (page) => {
    const broken: string[] = [];
    for (const { line, target } of links(read(page))) {
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // https:, mailto:
      const [path = '', anchor] = target.split('#');
      const file = path === '' ? join(ROOT, page) : join(ROOT, dirname(page), decodeURIComponent(path));
      if (!existsSync(file)) {
        broken.push(`${page}:${line}: ${target} (no ${relative(ROOT, file)})`);
        continue;
      }
      if (anchor !== undefined && statSync(file).isFile() && !anchors(readFileSync(file, 'utf8')).has(anchor)) {
        broken.push(`${page}:${line}: ${target} (no heading #${anchor} in ${relative(ROOT, file)})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every workspace-gateway command the pages print is a command of the CLI, with options it takes', () => {
    const { commands, common } = usage();
    const wrong: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      for (const words of codeSnippets(read(page)).flatMap((snippet) => invocations(snippet, CLI))) {
        const tokens = words.split(/\s+/);
        const name = [tokens.slice(0, 2).join(' '), tokens[0] ?? ''].find((candidate) => commands.has(candidate));
        if (name === undefined) {
          wrong.push(`${page}: ${words} (no such command)`);
          continue;
        }
        checked += 1;
        const allowed = commands.get(name) ?? new Set<string>();
        for (const flag of words.match(/--[a-z-]+/g) ?? []) {
          if (!allowed.has(flag) && !common.has(flag)) wrong.push(`${page}: ${words} (${name} takes no ${flag})`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(10);
  });

  it('every npm script the pages print is a script of package.json', () => {
    const scripts = (JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts;
    const printed = PAGES.flatMap((page) =>
      codeSnippets(read(page)).flatMap((snippet) => [...snippet.matchAll(/npm run ([\w:-]+)/g)].map((m) => ({ page, script: m[1] ?? '' }))),
    );
    expect(printed.length).toBeGreaterThan(0);
    expect(printed.filter(({ script }) => !Object.hasOwn(scripts, script))).toEqual([]);
  });

  it('every test path an `npx vitest run` command of the pages names is a file or folder of the repository', () => {
    const named = PAGES.flatMap((page) =>
      codeSnippets(read(page)).flatMap((snippet) =>
        [...snippet.matchAll(/npx vitest run((?: +[\w./-]+)+)/g)].flatMap((m) =>
          (m[1] ?? '').trim().split(/ +/).filter((word) => word.startsWith('test/')).map((path) => ({ page, path })),
        ),
      ),
    );
    expect(named.map(({ path }) => path)).toContain('test/features/time-off');
    expect(named.filter(({ path }) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('the first two commands are the fresh-clone start and the test command CI runs', () => {
    const block = /```sh\n([^\n]*)\n([^\n]*)\n```/.exec(README);
    const [start, test] = [block?.[1], block?.[2]].map((line) => (line ?? '').split(/\s#/)[0]?.trim());
    expect(start).toBe('npm install && npx workspace-gateway demo');
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8').split('\n').map((line) => line.trim());
    const ciTest = ci[ci.findIndex((line) => line.startsWith('echo "== test')) + 1];
    expect(test).toBe(ciTest);
    expect(test).toBe('npm test');
  });
});
