// Writes the OpenAPI document the service serves (built from the route schemas) to the given file.
import { writeFileSync } from 'node:fs';
import { buildApp } from '../src/app.ts';
import { systemClock } from '../src/shared/clock.ts';
import { loadConfig } from '../src/shared/config.ts';
import { openStore } from '../src/db/connect.ts';

const out = process.argv[2] ?? 'openapi.json';
const config = loadConfig({ ...process.env, DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
const store = openStore(config.databaseUrl);
const app = await buildApp({ config, store, clock: systemClock, logger: false });
await app.ready();
const res = await app.inject({ method: 'GET', url: '/openapi.json' });
writeFileSync(out, `${JSON.stringify(res.json(), null, 2)}\n`);
await app.close();
await store.close();
console.log(`wrote ${out}`);
