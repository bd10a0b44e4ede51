// Module hooks of loaded-modules.ts where only module.register() exists (Node 20): they run on a thread of their
// own, so each resolved URL is posted back; 'flush' is echoed, so that every URL posted before it has arrived.

import type { MessagePort } from 'node:worker_threads';

let port: MessagePort;

export function initialize(data: { port: MessagePort }): void {
  port = data.port;
  port.on('message', (message) => port.postMessage(message));
  port.unref();
}

type Resolved = { url: string };

export async function resolve(
  specifier: string,
  context: unknown,
  next: (specifier: string, context: unknown) => Promise<Resolved>,
): Promise<Resolved> {
  const resolved = await next(specifier, context);
  port.postMessage({ url: resolved.url });
  return resolved;
}
