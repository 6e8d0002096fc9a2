// The start-up warning for a /metrics anyone can read: docs/OPERATING.md, "Metrics".
import ipaddr from 'ipaddr.js';

/** Whether a listen address is reachable from this machine only: a loopback address, or `localhost`. */
export function loopbackOnly(host: string): boolean {
  if (host === 'localhost') return true;
  if (!ipaddr.isValid(host)) return false;
  return ipaddr.process(host).range() === 'loopback';
}

/**
 * What the gateway logs at warn level once it listens, when `/metrics` answers whoever reaches it: it listens
 * beyond loopback (a wildcard, a network address, a host name) and no METRICS_TOKEN is set. Null otherwise.
 */
export function openMetricsWarning(listen: { readonly host: string; readonly metricsToken: string | undefined }): string | null {
  if (listen.metricsToken !== undefined || loopbackOnly(listen.host)) return null;
  return (
    `GET /metrics answers anyone who reaches this gateway (it listens on ${listen.host}, and METRICS_TOKEN is not set): ` +
    'set METRICS_TOKEN to require Authorization: Bearer <token> there (docs/OPERATING.md, "Metrics")'
  );
}
