import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../shared/errors.ts';

export const CONSOLE_PREFIX = '/console';

/** The console's files: `src/console/index.html` and what lies under `src/console/assets/`. */
const CONSOLE_DIR = fileURLToPath(new URL('../console/', import.meta.url));

/**
 * The console runs only its own files: no inline script or style, no other origin, no frame around it, no `<base>`
 * to move its relative addresses, no plugin. `data:` images only for the browser's own form controls.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/** The types served; a file of any other kind under the folder is not served. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export interface ConsoleFile {
  readonly body: Buffer;
  readonly contentType: string;
  readonly etag: string;
}

export interface ConsoleFiles {
  /** The page every console path answers with (the script routes by the address). */
  readonly page: ConsoleFile;
  /** By path under `assets/` (`app.js`, `pages/queue.js`, …). */
  readonly assets: ReadonlyMap<string, ConsoleFile>;
}

function consoleFile(path: string): ConsoleFile {
  const body = readFileSync(path);
  const digest = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  return { body, contentType: CONTENT_TYPES[extname(path)] ?? 'application/octet-stream', etag: `"${digest}"` };
}

/** Reads the console's files once, at startup: a request never touches the file system. */
export function loadConsoleFiles(dir: string = CONSOLE_DIR): ConsoleFiles {
  const assets = new Map<string, ConsoleFile>();
  const assetDir = join(dir, 'assets');
  for (const entry of readdirSync(assetDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || CONTENT_TYPES[extname(entry.name)] === undefined) continue;
    const path = join(entry.parentPath, entry.name);
    assets.set(path.slice(assetDir.length + 1).split('\\').join('/'), consoleFile(path));
  }
  return { page: consoleFile(join(dir, 'index.html')), assets };
}

function send(request: FastifyRequest, reply: FastifyReply, file: ConsoleFile): FastifyReply {
  reply.header('etag', file.etag);
  if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
  return reply.type(file.contentType).send(file.body);
}

/**
 * `GET /console` and every path under it: the console, a page of plain ES modules for the members of a workspace
 * (docs/CONSOLE.md). Every path but `/console/assets/…` answers with the one page, whose script shows the view
 * the address names; an asset is one of the files read at startup, else 404. Loading them needs no credential
 * (the page signs in through the API); they are hidden from the OpenAPI document. Every console answer, errors
 * included, carries the Content-Security-Policy above; the files are revalidated on each load (`no-cache` with an
 * ETag), so a new version is picked up at once while an unchanged one costs a 304.
 */
export async function registerConsolePage(app: FastifyInstance, files: ConsoleFiles = loadConsoleFiles()): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRequest', async (_request, reply) => {
      reply.header('content-security-policy', CONSOLE_CSP);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'no-referrer');
      reply.header('x-frame-options', 'DENY');
      reply.header('cache-control', 'no-cache');
    });
    const schema = { hide: true };
    const page = (request: FastifyRequest, reply: FastifyReply) => send(request, reply, files.page);
    scope.get(CONSOLE_PREFIX, { schema }, page);
    scope.get(`${CONSOLE_PREFIX}/*`, { schema }, page);
    scope.get<{ Params: { '*': string } }>(`${CONSOLE_PREFIX}/assets/*`, { schema }, (request, reply) => {
      const file = files.assets.get(request.params['*']);
      if (!file) throw new AppError('not_found', 'No console file has this name.');
      return send(request, reply, file);
    });
  });
}
