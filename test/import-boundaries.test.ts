// The standalone server (server/) and the examples (examples/) use the package as a user's app does: a module
// outside their own folder is one the package exports (package.json "exports"). And no module anywhere is part of
// an import circle (type-only imports included: they tie modules together as much).

import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { importCycles } from './helpers/import-cycles.js';
import { moduleImports, sourceFiles } from './helpers/module-graph.js';

const REPO = path.resolve(import.meta.dirname, '..', '..');
/** Folders never read: installed packages, build output, the browser page's own project. */
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'web']);

const sources = (dir: string): string[] => sourceFiles(REPO, dir, SKIPPED);

/** Relative imports, re-exports and dynamic imports of a module, as repository paths of .ts files. */
const imports = (file: string): string[] => moduleImports(REPO, file).map((i) => i.path);

/** The source modules behind package.json "exports" (`./dist/index.js` is `index.ts`). */
function publicEntries(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
    exports: Record<string, string | { default: string }>;
  };
  return Object.values(pkg.exports)
    .map((target) => (typeof target === 'string' ? target : target.default))
    .filter((target) => target.startsWith('./dist/') && target.endsWith('.js'))
    .map((target) => path.normalize(target.slice('./dist/'.length).replace(/\.js$/, '.ts')));
}

describe('import boundaries', () => {
  const files = sources('.');
  const graph = new Map(files.map((f) => [f, imports(f)]));

  it('reads every folder it checks', () => {
    for (const dir of ['server', 'examples', 'middleware', 'renderer', 'bin', 'test']) {
      expect(
        files.some((f) => f.startsWith(`${dir}/`)),
        dir,
      ).to.equal(true);
    }
    expect(publicEntries()).to.deep.equal([
      'index.ts',
      'middleware/index.ts',
      'renderer/public-api.ts',
      'middleware/stores/memory/index.ts',
      'middleware/stores/redis/index.ts',
      'middleware/stores/postgres/index.ts',
      'middleware/printer/index.ts',
    ]);
    // Every import it found names a file that is there (a typo in the pattern would make the checks below vacuous).
    const missing = [...graph].flatMap(([f, deps]) =>
      deps.filter((d) => !existsSync(path.join(REPO, d))).map((d) => `${f} -> ${d}`),
    );
    expect(missing).to.deep.equal([]);
    expect(graph.get('server/server.ts')).to.include('middleware/index.ts');
  });

  for (const dir of ['server', 'examples']) {
    it(`${dir}/ imports nothing but its own modules and what the package exports`, () => {
      const entries = publicEntries();
      const reaching = files
        .filter((f) => f.startsWith(`${dir}/`))
        .flatMap((f) =>
          graph
            .get(f)!
            .filter((d) => !d.startsWith(`${dir}/`) && !entries.includes(d))
            .map((d) => `${f} -> ${d}`),
        );
      expect(reaching).to.deep.equal([]);
    });
  }

  it('has no import circle anywhere', () => {
    expect(importCycles(graph)).to.deep.equal([]);
  });
});
