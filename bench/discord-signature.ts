/**
 * Discord's side of an interaction, for the benchmark: an application's Ed25519 key pair, interactions signed as
 * Discord signs them (`X-Signature-Ed25519` over `X-Signature-Timestamp` + the raw body), and the cost of the
 * gateway's signature check alone (docs/BENCHMARKS.md, "Discord signature check"): the gateway's verifier
 * (src/features/discord/signature.ts) on a signed `/activity` interaction of Discord's size, the key already parsed,
 * as on every interaction after an application's first. `node bench/discord-signature.ts [iterations]` prints the
 * check's cost as JSON; the `discord-activity` scenario (discord-scenarios.ts) measures it in every run.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { cpus } from 'node:os';
import { pathToFileURL } from 'node:url';
import { createSignatureVerifier } from '../src/features/discord/signature.ts';

export interface DiscordKeys {
  /** The 32 raw bytes of the public key, hex: what a provisioning document's `discord.publicKey` holds. */
  readonly publicKeyHex: string;
  readonly privateKey: KeyObject;
}

export function discordKeys(): DiscordKeys {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return { publicKeyHex: der.subarray(der.length - 32).toString('hex'), privateKey };
}

/** A `/activity` command as Discord sends it: `userId` in `guildId`, with a token of Discord's length. */
export function activityInteraction(applicationId: string, guildId: string, userId: string, id: string): Record<string, unknown> {
  return {
    id,
    application_id: applicationId,
    type: 2,
    token: 'a'.repeat(200),
    version: 1,
    guild_id: guildId,
    channel_id: '900002',
    member: { user: { id: userId, username: `user${userId}`, global_name: null, avatar: null }, roles: [], permissions: '0' },
    data: { id: '1', name: 'activity', type: 1 },
  };
}

export interface SignedBody {
  /** The raw body: the interaction as JSON. */
  readonly body: string;
  readonly headers: Record<string, string>;
}

/** The request Discord would send now: the interaction's JSON and its signature headers. */
export function signInteraction(keys: DiscordKeys, interaction: Record<string, unknown>, nowMs = Date.now()): SignedBody {
  const body = JSON.stringify(interaction);
  const timestamp = String(Math.floor(nowMs / 1000));
  const signature = sign(null, Buffer.from(timestamp + body), keys.privateKey).toString('hex');
  return {
    body,
    headers: { 'content-type': 'application/json', 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp },
  };
}

export interface SignatureCheckCost {
  readonly iterations: number;
  readonly bodyBytes: number;
  readonly microsecondsPerCheck: number;
  readonly cpuMicrosecondsPerCheck: number;
}

/** The gateway's verifier run `iterations` times in this process on one signed interaction, after a warm-up. */
export function measureSignatureCheck(iterations: number): SignatureCheckCost {
  const keys = discordKeys();
  const now = Date.now();
  const signed = signInteraction(keys, activityInteraction('1187654321098765432', '900001', '5551', '1400000000000000001'), now);
  const verify = createSignatureVerifier();
  const request = {
    signature: signed.headers['x-signature-ed25519'],
    timestamp: signed.headers['x-signature-timestamp'],
    body: Buffer.from(signed.body),
  };
  const run = (n: number): number => {
    let valid = 0;
    for (let i = 0; i < n; i += 1) if (verify(keys.publicKeyHex, request, now)) valid += 1;
    return valid;
  };
  run(1_000); // warm-up: the key parsed, the code optimised
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  const valid = run(iterations);
  const wallNs = Number(process.hrtime.bigint() - start);
  const cpu = process.cpuUsage(cpuStart);
  if (valid !== iterations) throw new Error(`only ${valid} of ${iterations} signatures verified`);
  return {
    iterations,
    bodyBytes: request.body.length,
    microsecondsPerCheck: Math.round((wallNs / iterations / 1000) * 10) / 10,
    cpuMicrosecondsPerCheck: Math.round(((cpu.user + cpu.system) / iterations) * 10) / 10,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const cost = measureSignatureCheck(Number(process.argv[2] ?? 20_000));
  process.stdout.write(`${JSON.stringify({ ...cost, cpu: cpus()[0]?.model ?? 'unknown', node: process.version })}\n`);
}
