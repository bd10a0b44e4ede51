// The relative imports of TypeScript modules, read from their source: for the import tests (layers, boundaries).

import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface ModuleImport {
  /** The imported module, as a .ts path relative to the same root as the importer. */
  path: string;
  /** `import type` / `export type`: erased from the built module, so nothing is loaded. */
  typeOnly: boolean;
}

/** Static imports, re-exports, bare imports and dynamic imports of `file` (relative to `root`) that name a relative path. */
export function moduleImports(root: string, file: string): ModuleImport[] {
  const src = readFileSync(path.join(root, file), 'utf8');
  const found = src.matchAll(
    /^(?:import|export)(\s+type\b)?[^'";]*?from '(\.[^']+)'|^import '(\.[^']+)'|import\('(\.[^']+)'\)/gm,
  );
  return [...found].map((m) => ({
    path: path.normalize(path.join(path.dirname(file), (m[2] ?? m[3] ?? m[4]!).replace(/\.js$/, '.ts'))),
    typeOnly: m[1] !== undefined,
  }));
}

/** The .ts modules (not .d.ts) under `dir` of `root`, relative to `root`, skipping the folders named in `skip`. */
export function sourceFiles(root: string, dir = '.', skip: ReadonlySet<string> = new Set()): string[] {
  return readdirSync(path.join(root, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (skip.has(name) || name.startsWith('.')) return [];
    if (statSync(path.join(root, rel)).isDirectory()) return sourceFiles(root, rel, skip);
    return rel.endsWith('.ts') && !rel.endsWith('.d.ts') ? [rel] : [];
  });
}
