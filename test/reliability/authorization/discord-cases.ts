/**
 * The Discord interactions endpoint's authorization cases: its credential is Discord's Ed25519 signature, so
 * anything unsigned is 401 whatever else it carries (signed interactions: test/features/discord/).
 */
import type { World } from '../world.ts';
import type { RouteCases } from './case-builders.ts';
import { key } from './requests.ts';

const PING = { id: '1', type: 1 };

export const DISCORD_CASES: Readonly<Record<string, RouteCases>> = {
  'POST /v1/discord/applications/{applicationId}/interactions': {
    valid: () => ({ auth: null, body: PING, path: { applicationId: '1187654321098765432' } }),
    cases: [
      { name: 'an unsigned PING: 401', with: () => ({}), status: 401, code: 'unauthenticated' },
      {
        name: "an unsigned PING with workspace B's API key: a key is no signature",
        with: (w: World) => ({ auth: key(w.b.keys.test.secret) }),
        status: 401,
        code: 'unauthenticated',
      },
      {
        name: 'a signature that is not hex, and a timestamp of now: 401',
        with: () => ({ headers: { 'x-signature-ed25519': 'zz', 'x-signature-timestamp': String(Math.floor(Date.now() / 1000)) } }),
        status: 401,
        code: 'unauthenticated',
      },
    ],
  },
};
