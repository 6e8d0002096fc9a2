import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.ts';
import { systemClock } from '../../../src/shared/clock.ts';
import { loadConfig } from '../../../src/shared/config.ts';
import { openStore } from '../../../src/db/connect.ts';
import { renderTypes, TYPES_FILE } from '../../../clients/typescript/scripts/generate.js';

async function servedDocument(): Promise<object> {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
  const store = openStore(config.databaseUrl);
  const app = await buildApp({ config, store, clock: systemClock, logger: false });
  try {
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    return res.json() as object;
  } finally {
    await app.close();
    await store.close();
  }
}

describe('TypeScript client types', () => {
  it('the committed types are exactly those generated from the served document (else: npm run client:generate)', async () => {
    const expected = await renderTypes(await servedDocument());
    const committed = readFileSync(TYPES_FILE, 'utf8');
    expect(committed === expected, 'clients/typescript/src/openapi.ts is stale: run `npm run client:generate`').toBe(true);
  });

  it('a changed document gives different types (the comparison can fail)', async () => {
    const document = (await servedDocument()) as { paths: Record<string, unknown> };
    document.paths['/v1/extra'] = { get: { operationId: 'extra', responses: { 200: { description: 'Extra' } } } };
    expect(await renderTypes(document)).not.toBe(readFileSync(TYPES_FILE, 'utf8'));
  });
});
