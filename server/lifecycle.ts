// The standalone server's life: listening before it is ready (so /healthz answers while the stores come up),
// ready once they answer, and on SIGTERM a drain a load balancer can follow: /readyz answers 503 at once,
// requests are still served for a delay, then the listener closes, idle keep-alive sockets are closed, the
// requests in flight finish (or are cut off, with an access line, when the budget runs out) and the process exits.

import type { Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { markCutOffAtShutdown, type Emit } from '../middleware/index.js';

type State = 'starting' | 'ready' | 'stopping';

export interface DrainOptions {
  signal: NodeJS.Signals;
  servers: Server[];
  /** Requests are still served this long after the signal (SHUTDOWN_DELAY_MS). */
  delayMs: number;
  /** Then requests in flight get this long to finish before they are cut off (SHUTDOWN_TIMEOUT_MS). */
  timeoutMs: number;
  emit: Emit;
}

/** Time for the stores and the pool to close after the last request, before the process exits anyway. */
const CLOSE_GRACE_MS = 2000;
/** setTimeout's largest delay (a larger one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export class Lifecycle {
  private state: State = 'starting';
  private readonly inFlight = new Set<ServerResponse>();
  private listenerClosed = false;
  /** Ends the delay early: a second signal means "stop now" (the requests in flight still finish). */
  private skipDelay: () => void = () => {};

  /** Why /readyz must answer 503 besides the stores; undefined when serving. */
  unready(): string | undefined {
    if (this.state === 'starting') return 'starting';
    if (this.state === 'stopping') return 'shutting down';
    return undefined;
  }

  /** Marks the server ready; false when a signal came first. */
  ready(): boolean {
    if (this.state === 'starting') this.state = 'ready';
    return this.state === 'ready';
  }

  /** Listens, tracking the requests in flight; a failure to listen is one ERROR line and exit status 1. */
  listen(server: Server, port: number, host: string): Promise<number> {
    server.on('request', (_req, res: ServerResponse) => {
      this.inFlight.add(res);
      // After the listener closed, every answer ends its connection: the client reconnects to another replica.
      if (this.listenerClosed) res.setHeader('Connection', 'close');
      res.once('close', () => {
        this.inFlight.delete(res);
        if (this.listenerClosed) setImmediate(() => server.closeIdleConnections());
      });
    });
    server.on('error', (err: NodeJS.ErrnoException) => {
      console.error(`ERROR: ${server.listening ? err.message : listenFailure(err, host, port)}`);
      process.exit(1);
    });
    return new Promise((resolve) => server.listen(port, host, () => resolve((server.address() as AddressInfo).port)));
  }

  /** Calls `stop` on the first SIGTERM or SIGINT and exits 0 when it has finished; a second signal ends the delay. */
  onSignal(stop: (signal: NodeJS.Signals) => Promise<void>): void {
    const handle = (signal: NodeJS.Signals): void => {
      if (this.state === 'stopping') {
        this.skipDelay();
        return;
      }
      this.state = 'stopping';
      void stop(signal).finally(() => process.exit(0));
    };
    process.on('SIGTERM', handle);
    process.on('SIGINT', handle);
  }

  /** The drain after a signal; resolves once every server has closed and every request has ended. */
  async drain({ signal, servers, delayMs, timeoutMs, emit }: DrainOptions): Promise<void> {
    const note = (message: string, level: 'info' | 'warn' = 'info'): void => emit({ type: 'notice', level, message });
    // Whatever happens below, the process ends within the budget.
    setTimeout(() => process.exit(1), Math.min(delayMs + timeoutMs + CLOSE_GRACE_MS, MAX_TIMER_MS)).unref();
    if (delayMs > 0) {
      note(`${signal}: /readyz answers 503; requests are served for another ${delayMs} ms, then the listener closes`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(delayMs, MAX_TIMER_MS));
        this.skipDelay = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.listenerClosed = true;
    const closed = Promise.all(
      servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeIdleConnections();
          }),
      ),
    );
    // Printed once the listener is closed: whoever reads it finds new connections refused.
    note(`${signal}: shutting down`);
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(resolve, Math.min(timeoutMs, MAX_TIMER_MS), 'timeout');
    });
    if ((await Promise.race([closed, budget])) === 'timeout') {
      const cut = this.inFlight.size;
      // Each request cut off leaves its access line (completed: false, endedBy: shutdown) as its socket closes.
      for (const res of this.inFlight) markCutOffAtShutdown(res);
      for (const server of servers) server.closeAllConnections();
      note(`shutdown: ${cut} request${cut === 1 ? '' : 's'} still running after ${timeoutMs} ms, cut off`, 'warn');
      await closed;
    }
    clearTimeout(timer);
  }
}

/** One line for a listen that failed: the cause a newcomer can act on, never a stack trace. */
function listenFailure(err: NodeJS.ErrnoException, host: string, port: number): string {
  switch (err.code) {
    case 'EADDRINUSE':
      return `port ${port} is already in use`;
    case 'EACCES':
      return `no permission to listen on port ${port}`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${host}: no such local address`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${host}: unknown host`;
    default:
      return `cannot listen on ${host}:${port}: ${err.message}`;
  }
}
