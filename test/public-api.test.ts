// The package's runtime exports are the names README.md lists as the stable API, no more and no fewer: a new
// export is a decision written down there, and an internal (SCORE_BUCKETS, a DEFAULT_* constant) cannot leak out.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import * as pkg from '../index.js';
import * as middleware from '../middleware/index.js';

/** The backticked names of the README's "Stable API" table. */
function stableNames(): string[] {
  const readme = readFileSync(join(process.cwd(), 'README.md'), 'utf8');
  const section = readme.slice(
    readme.indexOf('\n## Stable API\n'),
    readme.indexOf('\n## ', readme.indexOf('\n## Stable API\n') + 1),
  );
  const rows = section.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| for '));
  return rows.flatMap((row) => [...row.split('|')[2]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
}

describe('public API', () => {
  it('the package exports exactly the names README.md lists as stable', () => {
    const listed = stableNames();
    expect(listed.length, 'names found in the README table').to.be.above(20);
    expect(new Set(listed).size, 'each name once').to.equal(listed.length);
    expect(Object.keys(pkg).sort()).to.deep.equal([...listed].sort());
  });

  it("the Express layer's entry exports nothing the package does not", () => {
    expect(Object.keys(middleware).filter((name) => !(name in pkg))).to.deep.equal([]);
  });

  it('each subpath export (router, renderer, store backends) exports only names of the package root', async () => {
    const manifest = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    const subpaths = Object.keys(manifest.exports).filter((p) => p !== '.' && p !== './package.json');
    expect(subpaths).to.include.members([
      './router',
      './renderer',
      './stores/memory',
      './stores/redis',
      './stores/postgres',
    ]);
    for (const subpath of subpaths) {
      const names = Object.keys(await import(`zpl-legacy-compat${subpath.slice(1)}`));
      expect(names.length, subpath).to.be.above(0);
      expect(
        names.filter((name) => !(name in pkg)),
        subpath,
      ).to.deep.equal([]);
    }
  });
});
