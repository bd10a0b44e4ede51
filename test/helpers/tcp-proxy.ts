// A TCP proxy between a client and a server (PostgreSQL, Redis) that a test can stall, resume and cut: a stall stops
// the bytes as a stopped server would, a cut drops the connections as a failover would, without touching the server
// others share.

import { connect, createServer, type Server, type Socket } from 'node:net';
import { EventEmitter } from 'node:events';

export interface TcpProxy {
  /** Where clients connect: 127.0.0.1 and this port. */
  readonly port: number;
  /** Connections accepted so far (each one a connection the client opened). */
  readonly opened: number;
  /** Connections open now. */
  readonly open: number;
  /** 'connection' on each accepted connection. */
  readonly events: EventEmitter;
  /**
   * Stops every byte both ways, on open connections and on those accepted while stalled; with `requests` only the
   * clients' bytes stop (a stopped server: what it sent before it stopped still arrives).
   */
  stall(only?: 'requests'): void;
  /** Lets the bytes flow again (what was held is delivered). */
  resume(): void;
  /** Drops every open connection, and what was held for it: clients must connect again. */
  cut(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  /** Bytes read while stalled, per destination, delivered on resume in order. */
  const held = new Map<Socket, Buffer[]>();
  const events = new EventEmitter();
  /** Whether bytes towards the server, and towards the client, are held. */
  let stalled = { requests: false, replies: false };
  let opened = 0;
  const server: Server = createServer((client) => {
    opened++;
    const upstream = connect(target.port, target.host);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    // By hand, not pipe(): pipe resumes a source on its destination's 'drain', which would end a stall.
    const forward = (to: Socket, way: keyof typeof stalled) => (chunk: Buffer) => {
      if (stalled[way]) held.set(to, [...(held.get(to) ?? []), chunk]);
      else to.write(chunk);
    };
    client.on('data', forward(upstream, 'requests'));
    upstream.on('data', forward(client, 'replies'));
    const end = (): void => {
      pairs.delete(pair);
      held.delete(client);
      held.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    events.emit('connection');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    port: address.port,
    get opened() {
      return opened;
    },
    get open() {
      return pairs.size;
    },
    events,
    stall(only) {
      stalled = { requests: true, replies: only !== 'requests' };
    },
    resume() {
      stalled = { requests: false, replies: false };
      for (const [to, chunks] of held) for (const chunk of chunks) to.write(chunk);
      held.clear();
    },
    cut() {
      held.clear();
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream.destroy();
      }
      pairs.clear();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const [client, upstream] of pairs) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

/** `url` with its host and port replaced by the proxy's. */
export function throughProxy(url: string, proxy: TcpProxy): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(proxy.port);
  return parsed.href;
}
