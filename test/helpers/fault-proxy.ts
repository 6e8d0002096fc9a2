/**
 * A TCP proxy in front of a real server (PostgreSQL, Redis) that a test can break the ways networks and servers
 * break, for the client on the other side:
 * - `reset()`: every open connection is reset (RST), and new ones are refused until `restore()`: a restart or a
 *   crash of the server, a load balancer or a NAT dropping its connections;
 * - `partition()` then `heal()`: nothing gets through either way, on open or new connections, and afterwards the
 *   held bytes are delivered and everything flows again (a network partition that heals before TCP gives up);
 * - `failover()` then `restore()`: open connections go silent for good (their bytes are dropped, nothing is closed),
 *   as when a primary is replaced behind the same address; new connections are held silent until `restore()` and
 *   work from then on.
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

type Flow = 'flowing' | 'held' | 'silent';

interface Pair {
  readonly client: Socket;
  upstream: Socket | null;
  flow: Flow;
  /** Bytes from the client while held (sent on heal). */
  readonly toServer: Buffer[];
  /** Bytes from the server while held (sent on heal). */
  readonly toClient: Buffer[];
}

export interface FaultProxy {
  /** Host and port that reach the server through the proxy. */
  readonly host: string;
  readonly port: number;
  reset(): void;
  partition(): void;
  heal(): void;
  failover(): void;
  restore(): void;
  /** Open client connections (those reset or refused are gone). */
  connections(): number;
  close(): Promise<void>;
}

type Mode = 'open' | 'refusing' | 'partitioned' | 'silent';

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  const pairs = new Set<Pair>();
  let mode: Mode = 'open';

  const openUpstream = (pair: Pair) => {
    const upstream = connect(target.port, target.host);
    pair.upstream = upstream;
    upstream.on('error', () => undefined);
    upstream.on('close', () => {
      if (pair.flow !== 'silent') pair.client.destroy();
    });
    upstream.on('data', (chunk: Buffer) => {
      if (pair.flow === 'flowing') pair.client.write(chunk);
      else if (pair.flow === 'held') pair.toClient.push(chunk);
    });
    for (const chunk of pair.toServer.splice(0)) upstream.write(chunk);
  };

  const server: Server = createServer((client) => {
    client.on('error', () => undefined);
    if (mode === 'refusing') {
      client.resetAndDestroy();
      return;
    }
    const pair: Pair = {
      client,
      upstream: null,
      flow: mode === 'open' ? 'flowing' : mode === 'partitioned' ? 'held' : 'silent',
      toServer: [],
      toClient: [],
    };
    pairs.add(pair);
    client.on('close', () => {
      pairs.delete(pair);
      if (pair.flow !== 'silent') pair.upstream?.destroy();
    });
    client.on('data', (chunk: Buffer) => {
      if (pair.flow === 'silent') return;
      if (pair.flow === 'held' || pair.upstream === null) pair.toServer.push(chunk);
      else pair.upstream.write(chunk);
    });
    if (pair.flow === 'flowing') openUpstream(pair);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const silenceAll = () => {
    for (const pair of pairs) {
      pair.flow = 'silent';
      pair.toServer.length = 0;
      pair.toClient.length = 0;
    }
  };

  return {
    host: '127.0.0.1',
    port,
    reset() {
      mode = 'refusing';
      for (const pair of [...pairs]) {
        pair.flow = 'silent';
        pair.client.resetAndDestroy();
        pair.upstream?.resetAndDestroy();
      }
      pairs.clear();
    },
    partition() {
      mode = 'partitioned';
      for (const pair of pairs) if (pair.flow === 'flowing') pair.flow = 'held';
    },
    heal() {
      mode = 'open';
      for (const pair of pairs) {
        if (pair.flow !== 'held') continue;
        pair.flow = 'flowing';
        if (pair.upstream === null) openUpstream(pair);
        else for (const chunk of pair.toServer.splice(0)) pair.upstream.write(chunk);
        for (const chunk of pair.toClient.splice(0)) pair.client.write(chunk);
      }
    },
    failover() {
      mode = 'silent';
      silenceAll();
    },
    restore() {
      mode = 'open';
    },
    connections: () => pairs.size,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream?.destroy();
      }
      pairs.clear();
      await closed;
    },
  };
}

/** `url` (postgres:// or redis://) with its host and port replaced by the proxy's. */
export function throughProxy(url: string, proxy: Pick<FaultProxy, 'host' | 'port'>): string {
  const proxied = new URL(url);
  proxied.hostname = proxy.host;
  proxied.port = String(proxy.port);
  return proxied.toString();
}
