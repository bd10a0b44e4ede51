// The printer port's settings (PRINTER_*): off unless PRINTER_PORT is set; loopback unless PRINTER_HOST says
// otherwise. Each mistake stops the server at start-up naming its variable.

import type { PrinterListenerOptions } from '../middleware/printer/index.js';
import { optionalNumber, optionalUrl } from './env-values.js';
import type { ServerEnv } from './variables.js';

/** What the server passes to createPrinterListener (the render function, feed and events come from the server). */
export type PrinterConfig = Omit<PrinterListenerOptions, 'render' | 'feed' | 'emit'> & { port: number; host: string };

const DPMMS = [6, 8, 12, 24] as const;

export function readPrinterConfig(env: ServerEnv): PrinterConfig | undefined {
  const port = optionalNumber(env, 'PRINTER_PORT', (n) => n <= 65535, 'a TCP port (0 to 65535)');
  if (port === undefined) return undefined;
  const whole = (n: number): boolean => n > 0;
  const idleMs = optionalNumber(env, 'PRINTER_IDLE_MS', whole, 'a whole number of milliseconds above 0');
  const dpmm = optionalNumber(env, 'PRINTER_DPMM', (n) => (DPMMS as readonly number[]).includes(n), '6, 8, 12 or 24');
  const size = (env.PRINTER_SIZE ?? '').trim();
  const sized = /^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)$/i.exec(size);
  if (
    size !== '' &&
    !(sized && Number(sized[1]) > 0 && Number(sized[2]) > 0 && Number(sized[1]) <= 15 && Number(sized[2]) <= 15)
  )
    throw new Error(`PRINTER_SIZE must be WIDTHxHEIGHT in inches (e.g. 4x6, at most 15x15), not ${env.PRINTER_SIZE}`);
  const forward = (env.PRINTER_FORWARD ?? '').trim();
  if (forward !== '' && !/^tcp:\/\/[^/:]+(:\d{1,5})?\/?$|^tcp:\/\/\[[0-9a-f:.]+\](:\d{1,5})?\/?$/i.test(forward))
    throw new Error(`PRINTER_FORWARD must be tcp://host:port (a printer's raw port), not ${env.PRINTER_FORWARD}`);
  const webhook = optionalUrl(
    env,
    'PRINTER_WEBHOOK',
    ['http:', 'https:'],
    "an http(s) URL each job's summary is POSTed to",
  );
  const allow = (env.PRINTER_ALLOW ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  const maxConnections = optionalNumber(env, 'PRINTER_MAX_CONNECTIONS', whole, 'a whole number above 0');
  const maxJobBytes = optionalNumber(env, 'PRINTER_MAX_JOB_BYTES', whole, 'a whole number of bytes above 0');
  const maxConnectionBytes = optionalNumber(
    env,
    'PRINTER_MAX_CONNECTION_BYTES',
    whole,
    'a whole number of bytes above 0',
  );
  return {
    port,
    host: env.PRINTER_HOST?.trim() || '127.0.0.1',
    ...(allow.length > 0 && { allow }),
    ...(idleMs !== undefined && { idleMs }),
    ...(dpmm !== undefined && { dpmm: dpmm as PrinterConfig['dpmm'] }),
    ...(sized && { widthIn: Number(sized[1]), heightIn: Number(sized[2]) }),
    ...(forward !== '' && { forward }),
    ...(webhook !== undefined && { webhook }),
    ...(maxConnections !== undefined && { maxConnections }),
    ...(maxJobBytes !== undefined && { maxJobBytes }),
    ...(maxConnectionBytes !== undefined && { maxConnectionBytes }),
  };
}
