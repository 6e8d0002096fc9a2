import { connect } from 'node:tls';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseOptions } from '../../bench/options.ts';
import { makeReceiverCertificate } from '../../bench/receiver-tls.ts';

/** Completes a TLS handshake with 127.0.0.1:port trusting `ca` only; resolves with the verification error, if any. */
function handshake(port: number, ca: Buffer): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, ca, rejectUnauthorized: false }, () => {
      resolve(socket.authorized ? null : String(socket.authorizationError));
      socket.destroy();
    });
    socket.on('error', (error) => resolve(error.message));
  });
}

describe('benchmark: the webhook receiver', () => {
  it('keeps its connections by default; --receiver-closes closes each', () => {
    expect(parseOptions([], {}).receiverCloses).toBe(false);
    expect(parseOptions(['--receiver-closes'], {}).receiverCloses).toBe(true);
  });

  it('serves a certificate for 127.0.0.1 that verifies against itself and no other', async () => {
    const mine = makeReceiverCertificate();
    const other = makeReceiverCertificate();
    const server = createServer({ key: mine.key, cert: mine.cert });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      expect(await handshake(port, mine.cert)).toBeNull();
      expect(await handshake(port, other.cert)).toMatch(/SELF_SIGNED|self-signed/i);
    } finally {
      server.close();
    }
  });
});
