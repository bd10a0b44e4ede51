// What libraries print to the console, as log lines. node-redis's Sentinel client prints a stack trace with
// console.log each second while no Sentinel answers. On standard output that broke the JSON lines, wrote to the
// pipe synchronously (a stalled reader froze the server, as pino's synchronous writes once did), and crashed the
// server once the reader was gone (EPIPE, an unhandled 'error' on process.stdout).

import { format } from 'node:util';
import type { ServiceEvent } from '../middleware/index.js';

export type RoutedConsoleMethod = Extract<ServiceEvent, { type: 'library_output' }>['method'];

/** The console methods libraries use for diagnostics. console.error stays: start-up failures print ERROR lines. */
export const ROUTED_CONSOLE_METHODS: readonly RoutedConsoleMethod[] = ['log', 'info', 'debug', 'warn'];

/** Replaces `target`'s routed methods with ones that call `report` with the text they would have printed. */
export function routeConsole(
  target: Pick<Console, RoutedConsoleMethod>,
  report: (method: RoutedConsoleMethod, text: string) => void,
): void {
  for (const method of ROUTED_CONSOLE_METHODS) {
    target[method] = (...args: unknown[]): void => report(method, format(...args));
  }
}
