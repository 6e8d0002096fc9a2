/**
 * The webhook scenarios' receiver answers over HTTPS, as receivers in production do, so a delivery's figures
 * include what TLS costs the sender. Its certificate is made for this run (openssl, a 2048-bit RSA key, as most
 * receivers present) and the gateway under test trusts it through `NODE_EXTRA_CA_CERTS`, read by every thread of
 * the process at start. The product's tests make theirs here too (an HTTPS receiver, trusted or not).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ReceiverCertificate {
  /** The certificate's PEM file: what the gateway is told to trust. */
  readonly certFile: string;
  readonly key: Buffer;
  readonly cert: Buffer;
}

/**
 * A new self-signed certificate for 127.0.0.1 and its key, in a temporary directory removed when the process exits
 * (the key is only kept in memory).
 */
export function makeReceiverCertificate(): ReceiverCertificate {
  const dir = mkdtempSync(join(tmpdir(), 'wsg-tls-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=127.0.0.1',
        '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  } catch (error) {
    throw new Error(`a receiver certificate could not be made with openssl: ${(error as Error).message}`);
  }
  const key = readFileSync(keyFile);
  rmSync(keyFile);
  return { certFile, key, cert: readFileSync(certFile) };
}

let made: ReceiverCertificate | undefined;

/** The run's receiver certificate, made on first use. */
export function receiverCertificate(): ReceiverCertificate {
  made ??= makeReceiverCertificate();
  return made;
}
