// The start-up lines that say what the environment turned on (one each), printed just before `listening on`.

import { LEGACY_MOUNT_PATH } from '../middleware/index.js';
import type { ServerConfig } from './config.js';

export function startupNotes(config: ServerConfig, opsPort: number | undefined, printerPort?: number): string[] {
  const { legacyPaths, legacyClients, anonymousKey } = config.clients;
  const notes: string[] = [];
  if (legacyClients) {
    notes.push(
      `LEGACY_CLIENTS=1: legacy API also at /v1 (${legacyPaths.join(', ')}), lenient paths, POST /graphics, POST /fonts, ?key=; ` +
        (anonymousKey === undefined
          ? 'it does not turn on key-less access: clients that cannot send a key need ANONYMOUS_KEY_ID (a key id from `npx zpl-keys list`)'
          : `clients that cannot send a key are served as key ${anonymousKey} (ANONYMOUS_KEY_ID)`),
    );
  } else if (legacyPaths.join() !== LEGACY_MOUNT_PATH) {
    notes.push(`LEGACY_PATHS: legacy API at ${legacyPaths.join(', ')}`);
  }
  if (config.upstream.mode !== 'off')
    notes.push(`UPSTREAM_MODE=${config.upstream.mode}: legacy service at ${redactUrl(config.upstream.url!)}`);
  if (opsPort !== undefined)
    notes.push(
      `OPS_PORT: /healthz, /readyz, /metrics and /openapi.json on http://${config.host}:${opsPort}, not on the API port`,
    );
  if (config.printer && printerPort !== undefined) {
    const { host, allow } = config.printer;
    notes.push(
      `PRINTER_PORT: raw ZPL printer on tcp://${host}:${printerPort}` +
        (allow ? ` for ${allow.join(', ')}` : !isLoopback(host) ? '; any address may print: set PRINTER_ALLOW' : ''),
    );
  }
  return notes;
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/** The URL without credentials, for the log. */
function redactUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}
