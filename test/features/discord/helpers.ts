/**
 * Discord as the tests play it: an application's Ed25519 key pair (the test holds the private key, the gateway
 * the public one through the provisioning document), and interactions signed with it as Discord signs them.
 */
import { generateKeyPairSync, sign, type KeyObject } from 'node:crypto';

export interface DiscordApplication {
  readonly applicationId: string;
  readonly publicKey: string;
  readonly privateKey: KeyObject;
}

let counter = 0;

export function discordApplication(applicationId = `${1_300_000_000_000_000_000n + BigInt(++counter)}`): DiscordApplication {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const der = publicKey.export({ format: 'der', type: 'spki' });
  return { applicationId, publicKey: der.subarray(der.length - 32).toString('hex'), privateKey };
}

export interface SignedInteraction {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload: string;
}

/** The request Discord would send: the body signed with `timestamp` (default: the clock's now). */
export function signedInteraction(
  application: DiscordApplication,
  interaction: Record<string, unknown>,
  nowMs: number,
  options: { timestamp?: number; key?: KeyObject } = {},
): SignedInteraction {
  const payload = JSON.stringify(interaction);
  const timestamp = String(options.timestamp ?? Math.floor(nowMs / 1000));
  const signature = sign(null, Buffer.from(timestamp + payload), options.key ?? application.privateKey).toString('hex');
  return {
    url: `/v1/discord/applications/${application.applicationId}/interactions`,
    headers: { 'content-type': 'application/json', 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp },
    payload,
  };
}

let interactionCounter = 0;

/** A fresh interaction id (a snowflake's digits). */
export function interactionId(): string {
  interactionCounter += 1;
  return String(1_400_000_000_000_000_000n + BigInt(interactionCounter));
}

interface Who {
  readonly guildId: string;
  readonly userId: string;
  readonly name?: string;
}

function base(type: number, who: Who, id = interactionId()) {
  return {
    id,
    type,
    token: 'interaction-token',
    version: 1,
    guild_id: who.guildId,
    member: { user: { id: who.userId, username: who.name ?? `user${who.userId}`, global_name: who.name ?? null }, roles: [] },
  };
}

/** A slash command; `sub` puts the options under a subcommand. */
export function command(who: Who, name: string, options: Record<string, string> = {}, sub?: string, id?: string) {
  const values = Object.entries(options).map(([key, value]) => ({ name: key, type: 3, value }));
  const data = sub ? { name, type: 1, options: [{ name: sub, type: 1, options: values }] } : { name, type: 1, options: values };
  return { ...base(2, who, id), data };
}

/** A button press on a message. */
export function press(who: Who, customId: string, id?: string) {
  return { ...base(3, who, id), data: { custom_id: customId, component_type: 2 }, message: { id: '1', content: '' } };
}

export interface DiscordMessage {
  readonly type: number;
  readonly data?: {
    readonly content: string;
    readonly flags?: number;
    readonly allowed_mentions: { readonly parse: readonly string[] };
    readonly components?: ReadonlyArray<{ readonly components: ReadonlyArray<{ readonly label?: string; readonly custom_id?: string }> }>;
  };
}
