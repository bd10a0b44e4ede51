// Requests a router is answering, so that its close() lets them finish before it lets go of the renderer:
// a host that closes its server and then the router (or both at once) loses no request in flight.

import type { ServerResponse } from 'node:http';

export interface InFlight {
  /** Middleware: counts the request until its answer is finished or its client has gone. */
  track(req: unknown, res: ServerResponse, next: () => void): void;
  /** Resolves once no request is in flight. */
  idle(): Promise<void>;
}

export function inFlightRequests(): InFlight {
  let count = 0;
  const waiters: (() => void)[] = [];
  return {
    track(_req, res, next) {
      count++;
      let ended = false;
      const end = (): void => {
        if (ended) return;
        ended = true;
        if (--count === 0) for (const wake of waiters.splice(0)) wake();
      };
      res.once('finish', end);
      res.once('close', end);
      next();
    },
    idle: () => (count === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
  };
}
