/**
 * The cost of a Discord interaction's signature check alone (docs/BENCHMARKS.md, "Discord signature check"): the
 * gateway's verifier (src/features/discord/signature.ts) on a signed `/activity` interaction of Discord's size,
 * the key already parsed, as on every interaction after an application's first. Prints JSON:
 * `node bench/discord-signature.ts [iterations]`.
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { cpus } from 'node:os';
import { createSignatureVerifier } from '../src/features/discord/signature.ts';

const iterations = Number(process.argv[2] ?? 20_000);
const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const der = publicKey.export({ format: 'der', type: 'spki' });
const publicKeyHex = der.subarray(der.length - 32).toString('hex');
const interaction = {
  id: '1400000000000000001',
  application_id: '1187654321098765432',
  type: 2,
  token: 'a'.repeat(200),
  version: 1,
  guild_id: '900001',
  channel_id: '900002',
  member: { user: { id: '5551', username: 'alice', global_name: 'Alice', avatar: null }, roles: [], permissions: '0' },
  data: { id: '1', name: 'activity', type: 1 },
};
const body = Buffer.from(JSON.stringify(interaction));
const now = Date.now();
const timestamp = String(Math.floor(now / 1000));
const signature = sign(null, Buffer.concat([Buffer.from(timestamp), body]), privateKey).toString('hex');
const verify = createSignatureVerifier();
const request = { signature, timestamp, body };

const run = (n: number): number => {
  let valid = 0;
  for (let i = 0; i < n; i += 1) if (verify(publicKeyHex, request, now)) valid += 1;
  return valid;
};
run(1_000); // warm-up: the key parsed, the code optimised
const cpuStart = process.cpuUsage();
const start = process.hrtime.bigint();
const valid = run(iterations);
const wallNs = Number(process.hrtime.bigint() - start);
const cpu = process.cpuUsage(cpuStart);
if (valid !== iterations) throw new Error(`only ${valid} of ${iterations} signatures verified`);
process.stdout.write(
  `${JSON.stringify({
    iterations,
    bodyBytes: body.length,
    microsecondsPerCheck: Math.round((wallNs / iterations / 1000) * 10) / 10,
    cpuMicrosecondsPerCheck: Math.round(((cpu.user + cpu.system) / iterations) * 10) / 10,
    cpu: cpus()[0]?.model ?? 'unknown',
    node: process.version,
  })}\n`,
);
