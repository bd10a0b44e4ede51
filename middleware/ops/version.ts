// The package version, read once from package.json (two levels above dist/middleware/ops or middleware/ops).

import { readFileSync } from 'node:fs';

let version: string | undefined;

export function packageVersion(): string {
  if (version !== undefined) return version;
  for (const relative of ['../../../package.json', '../../package.json']) {
    try {
      const parsed = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (parsed.name === 'zpl-legacy-compat' && parsed.version) return (version = parsed.version);
    } catch {
      // not there: try the next level
    }
  }
  return (version = '0.0.0');
}
