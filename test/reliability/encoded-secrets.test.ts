/**
 * Credentials sent where they do not belong, in encoded forms, never reach the log of a real `serve` process
 * (logging at trace level), on both stores: an API key as `?api_key=wsk%5Ftest%5F…`, fully percent-encoded,
 * encoded twice, with its prefix in upper case, in a path segment; a dashboard token with `%2E` separators; a key
 * sent as the Host header, also on requests the HTTP parser rejects. The captured log is searched for every
 * credential and every 12-character piece of its secret, as written and as it decodes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, STORE_KINDS, type TestDatabase } from '../helpers/stores.ts';
import { exchange } from './raw-http.ts';
import { killAll, seedLoadWorld, startGateway, type Gateway } from './serving.ts';

const FRAGMENT = 12;

const percentEncodeAll = (text: string) =>
  [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** Every credential and every FRAGMENT-character piece of its secret part. */
function secretPieces(credentials: readonly string[]): string[] {
  const pieces = new Set<string>();
  for (const credential of credentials) {
    pieces.add(credential);
    const secret = credential.startsWith('wsk_') ? credential.slice('wsk_test_'.length) : (credential.split('.')[2] ?? '');
    for (let i = 0; i + FRAGMENT <= secret.length; i += 1) pieces.add(secret.slice(i, i + FRAGMENT));
  }
  return [...pieces];
}

/** The text, and what it decodes to under repeated percent-decoding (byte by byte, never failing). */
function readings(text: string): string[] {
  const out = [text];
  let current = text;
  for (let round = 0; round < 4; round += 1) {
    const decoded = current.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    if (decoded === current) break;
    out.push(decoded);
    current = decoded;
  }
  return out;
}

afterAll(async () => {
  await killAll();
});

describe.each(STORE_KINDS)('encoded credentials in the log of a real server (%s)', (kind) => {
  let database: TestDatabase;
  let gateway: Gateway;
  let apiKey: string;
  let token: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    ({ apiKey, token } = await seedLoadWorld(database, { extraStaff: 0, submissions: 0 }));
    gateway = await startGateway({ name: `log-${kind}`, databaseUrl: database.url, env: { LOG_LEVEL: 'trace' } });
  });

  afterAll(async () => {
    await killAll();
    await database?.drop();
  });

  it('no credential, in any encoding, appears in any logged field', async () => {
    const port = Number(new URL(gateway.baseUrl).port);
    const [header = '', payload = '', signature = ''] = token.split('.');
    const encodedUnderscores = apiKey.replaceAll('_', '%5F');
    const paths = [
      `/v1/integration?api_key=${encodedUnderscores}`,
      `/v1/integration?api_key=${percentEncodeAll(apiKey)}`,
      `/v1/integration?api_key=${encodedUnderscores.replaceAll('%', '%25')}`,
      `/v1/integration?api_key=${apiKey.replace('wsk_test_', 'WSK_TEST_')}`,
      `/v1/activity/shifts/${encodedUnderscores}`,
      `/v1/activity/shifts/${percentEncodeAll(apiKey)}/heartbeat`,
      `/v1/integration?access_token=${header}%2E${payload}%2E${signature}`,
      `/v1/integration?access_token=${percentEncodeAll(token)}`,
      `/v1/applications/submissions/${header}%2e${payload}%2e${signature}`,
    ];
    for (const path of paths) {
      const res = await fetch(`${gateway.baseUrl}${path}`, { headers: { authorization: `Bearer ${apiKey}` } });
      expect(res.status, path).toBeGreaterThanOrEqual(200);
      await res.text();
    }
    // The Host header is logged with every request; a key sent there (and on requests the parser rejects).
    for (const host of [apiKey, percentEncodeAll(apiKey), `${encodedUnderscores}:80`]) {
      await exchange(port, `GET /health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      await exchange(port, `get /health?k=${encodedUnderscores} HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
      await exchange(port, `POST /health?k=${encodedUnderscores} HTTP/1.1\r\nHost: ${host}\r\nExpect: bogus\r\nContent-Length: 0\r\n\r\n`);
    }
    expect(await gateway.stop()).toBe(0);

    const log = gateway.output();
    const pieces = secretPieces([apiKey, token]);
    for (const reading of readings(log)) {
      expect(pieces.filter((piece) => reading.includes(piece))).toEqual([]);
    }
    // The requests were logged (with their URLs and hosts): the search above had something to search.
    expect(log).toContain('"msg":"incoming request"');
    expect(log).toContain('/v1/integration?api_key=');
    expect(log.split('[redacted]').length - 1).toBeGreaterThanOrEqual(paths.length);
  }, 90_000);
});
