import type { FastifyRequest } from 'fastify';

/**
 * The base address a client used, as a trusted reverse proxy reports it (X-Forwarded-Proto and X-Forwarded-Host,
 * else the Host it passed on); undefined for a request that did not come through a trusted proxy, or whose
 * forwarded values do not make an http(s) origin. Fastify believes the headers only from TRUST_PROXY's peers
 * (app.ts), and only then does `request.ips` hold more than the peer's own address.
 */
export function forwardedBaseUrl(request: FastifyRequest): string | undefined {
  if (request.ips === undefined || request.ips.length < 2) return undefined;
  const protocol = request.protocol;
  if (protocol !== 'http' && protocol !== 'https') return undefined;
  try {
    const url = new URL(`${protocol}://${request.host}`);
    return url.host === '' ? undefined : url.origin;
  } catch {
    return undefined;
  }
}
