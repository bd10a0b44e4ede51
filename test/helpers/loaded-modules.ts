// A child process that imports one module (a package entry, the server) and tells its parent, over IPC, every
// module its main thread has loaded: `node loaded-modules.js SPECIFIER [--start-server]`. The hooks that record
// them are installed on this thread only, so worker threads (the render workers) load what they like unseen.
// Messages: it sends 'imported' once the import (and start-up call) returned; it answers 'list' with the URLs.

import module from 'node:module';
import { MessageChannel } from 'node:worker_threads';

type Resolve = (specifier: string, context: unknown, next: (s: string, c: unknown) => { url: string }) => unknown;
/** Node 22.15+ and 23.5+: synchronous hooks on the thread that loads (module.registerHooks is not in @types/node 20). */
const registerHooks = (module as unknown as { registerHooks?: (hooks: { resolve: Resolve }) => void }).registerHooks;

const loaded = new Set<string>();
let settled: () => Promise<void> = async () => {};

if (registerHooks) {
  registerHooks({
    resolve(specifier, context, next) {
      const resolved = next(specifier, context);
      loaded.add(resolved.url);
      return resolved;
    },
  });
} else {
  const { port1, port2 } = new MessageChannel();
  const flushed: Array<() => void> = [];
  port1.on('message', (message: { url: string } | 'flush') => {
    if (message === 'flush') flushed.shift()?.();
    else loaded.add(message.url);
  });
  port1.unref();
  module.register(new URL('./loaded-modules-hooks.js', import.meta.url), {
    data: { port: port2 },
    transferList: [port2],
  });
  // Messages on one port arrive in order: once 'flush' is back, every URL recorded before it is here.
  settled = () =>
    new Promise((resolve) => {
      flushed.push(resolve);
      port1.postMessage('flush');
    });
}

const [specifier, start] = process.argv.slice(2);
const imported = (await import(specifier!)) as { startServer?: () => void };
if (start === '--start-server') imported.startServer!();

process.on('message', (message) => {
  if (message !== 'list') return;
  void settled().then(() => process.send!([...loaded]));
});
process.send!('imported');
