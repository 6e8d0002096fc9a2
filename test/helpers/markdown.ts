/**
 * Just enough Markdown reading for the documentation tests: the links a page makes, the anchors its headings get,
 * and the commands its code shows. Fenced code blocks and inline code are not prose: a `[x](y)` inside them is text.
 */

export interface Link {
  readonly line: number;
  readonly target: string;
}

/** A fenced block's lines as blanks, so line numbers stay those of the file. */
function withoutFences(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** Inline code spans removed (a span never crosses a line in these pages). */
const withoutCode = (line: string): string => line.replace(/`[^`]*`/g, '');

/** Every `[label](target)` and `![alt](target)` of the prose, with its line. */
export function links(text: string): Link[] {
  const found: Link[] = [];
  withoutFences(text).forEach((line, index) => {
    for (const match of withoutCode(line).matchAll(/\]\(([^)\s]+)\)/g)) {
      found.push({ line: index + 1, target: match[1] ?? '' });
    }
  });
  return found;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a page's headings; a repeated heading gets `-1`, `-2`, ... as on GitHub. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of withoutFences(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** The code of a page: fenced blocks' lines and inline spans, each a separate snippet. */
export function codeSnippets(text: string): string[] {
  const snippets: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) snippets.push(line);
    else for (const match of line.matchAll(/`([^`]+)`/g)) snippets.push(match[1] ?? '');
  }
  return snippets;
}

/**
 * The words after each `prefix` in a snippet, up to a shell comment, `&&`, a pipe or `;`:
 * `npx workspace-gateway keys list [--application <id>]   # ...` gives `keys list [--application <id>]`.
 */
export function invocations(snippet: string, prefix: RegExp): string[] {
  const parts = snippet.split(prefix).slice(1);
  return parts.map((rest) => (rest.split(/\s#|&&|\s\|\s|;/)[0] ?? '').trim()).filter((words) => words !== '');
}
