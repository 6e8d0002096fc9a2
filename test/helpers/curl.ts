/** A request as a printed `curl` command line describes it. */
export interface CurlRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
}

/**
 * Splits a command line into words as a POSIX shell would for the subset the demo prints: single quotes, double
 * quotes and `$(date +%s%N)` (a fresh value per call, as the shell's clock would give).
 */
function words(line: string, fresh: () => string): string[] {
  const out: string[] = [];
  let current: string | undefined;
  for (let i = 0; i < line.length; i += 1) {
    const c = line.charAt(i);
    if (c === ' ') {
      if (current !== undefined) out.push(current);
      current = undefined;
    } else if (c === "'" || c === '"') {
      const end = line.indexOf(c, i + 1);
      if (end < 0) throw new Error(`unterminated quote in: ${line}`);
      let quoted = line.slice(i + 1, end);
      if (c === '"') quoted = quoted.replaceAll('$(date +%s%N)', fresh);
      if (quoted.includes('$') && c === '"') throw new Error(`unsupported expansion in: ${line}`);
      current = (current ?? '') + quoted;
      i = end;
    } else if (line.startsWith('$(date +%s%N)', i)) {
      current = (current ?? '') + fresh();
      i += '$(date +%s%N)'.length - 1;
    } else {
      current = (current ?? '') + c;
    }
  }
  if (current !== undefined) out.push(current);
  return out;
}

let counter = 0;
const freshValue = (): string => `${Date.now()}${String((counter += 1)).padStart(6, '0')}`;

/** Reads `curl -s [-X METHOD] URL [-H 'Name: value']… [-d 'body']` into a request (fails on anything else). */
export function parseCurl(line: string): CurlRequest {
  const [command, ...args] = words(line.trim(), freshValue);
  if (command !== 'curl') throw new Error(`not a curl command: ${line}`);
  let method: string | undefined;
  let url: string | undefined;
  let body: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    const value = (): string => {
      i += 1;
      const next = args[i];
      if (next === undefined) throw new Error(`${arg} without a value in: ${line}`);
      return next;
    };
    if (arg === '-s') continue;
    if (arg === '-X') method = value();
    else if (arg === '-H') {
      const header = value();
      const colon = header.indexOf(':');
      if (colon <= 0) throw new Error(`malformed header ${header} in: ${line}`);
      headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim();
    } else if (arg === '-d') body = value();
    else if (!arg.startsWith('-') && url === undefined) url = arg;
    else throw new Error(`unsupported curl argument ${arg} in: ${line}`);
  }
  if (url === undefined) throw new Error(`no URL in: ${line}`);
  return { method: method ?? (body === undefined ? 'GET' : 'POST'), url, headers, body };
}
