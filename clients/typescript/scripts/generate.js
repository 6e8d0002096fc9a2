// Renders the TypeScript types of the gateway's OpenAPI document (openapi-typescript), and, run as a program,
// writes them for the document the gateway serves: `npm run client:generate`.
import { writeFileSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

/** Where the committed types live. */
export const TYPES_FILE = fileURLToPath(new URL('../src/openapi.ts', import.meta.url));

const HEADER = [
  '// Generated from the OpenAPI document the gateway serves (GET /openapi.json) by openapi-typescript.',
  '// Do not edit: run `npm run client:generate`. A test fails when this file differs from the served document.',
  '',
].join('\n');

/** The types module for `document` (an OpenAPI 3.x object), exactly as the committed file holds it. */
export async function renderTypes(document) {
  // A copy: openapi-typescript annotates the object it is given.
  const ast = await openapiTS(JSON.parse(JSON.stringify(document)), { silent: true, alphabetize: false });
  return `${HEADER}${astToString(ast)}`;
}

/** The document the gateway serves, from an in-process app on an in-memory store . */
export async function servedDocument() {
  const { buildApp } = await import('../../../src/app.ts');
  const { systemClock } = await import('../../../src/shared/clock.ts');
  const { loadConfig } = await import('../../../src/shared/config.ts');
  const { openStore } = await import('../../../src/db/connect.ts');
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
  const store = openStore(config.databaseUrl);
  const app = await buildApp({ config, store, clock: systemClock, logger: false });
  try {
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}`);
    return res.json();
  } finally {
    await app.close();
    await store.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(TYPES_FILE, await renderTypes(await servedDocument()));
  process.stdout.write(`wrote ${TYPES_FILE}\n`);
}
