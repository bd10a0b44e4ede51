// What `npm pack` ships, exactly: the compiled library, CLIs, standalone server and examples (each from a source file
// of this tree, never a test, benchmark or measuring script, nor a stale file of an earlier build), the preview
// page's files, README, LICENSE and CHANGELOG; never the corpus, the sources or the docs. No install-time scripts for
// consumers (`prepare`, which installs a clone's commit hook, runs only on the clone's own install).

import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO = process.cwd();

/** The folders whose compiled JavaScript the package ships (tsconfig.json compiles test/, bench/ and tools/ too). */
const SHIPPED_SOURCES = ['bin', 'compare', 'examples', 'middleware', 'renderer', 'server'];
/** Files the package ships as they are: the preview page's (the preview router reads them from web/), and the docs. */
const SHIPPED_FILES = [
  'package.json',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
  'web/index.html',
  'web/shadow.html',
  'web/style.css',
];

/** Every `.ts` file (not `.d.ts`) under `dir`, relative to the repository. */
function sources(dir: string): string[] {
  return readdirSync(join(REPO, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(REPO, path)).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [relative('.', path)] : [];
  });
}

describe('npm package contents', function () {
  this.timeout(120_000);
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
    files: string[];
    scripts: Record<string, string>;
    bin: Record<string, string>;
    license: string;
    exports: Record<string, string | { types: string; default: string }>;
  };

  it('ships exactly the compiled sources, the preview page, README, LICENSE and CHANGELOG', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '--silent'], { cwd: REPO });
    const files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path).sort();
    // What the package needs: each source's JavaScript and declarations, the preview page's scripts, the files as they are.
    const compiled = ['index.ts', ...SHIPPED_SOURCES.flatMap(sources)].flatMap((source) => {
      const base = `dist/${source.replace(/\.ts$/, '')}`;
      return [`${base}.js`, `${base}.d.ts`];
    });
    const page = sources('web/src').map(
      (source) => `dist/web/${source.slice('web/src/'.length).replace(/\.ts$/, '.js')}`,
    );
    const needed = [...compiled, ...page, ...SHIPPED_FILES].sort();
    // A file an earlier build left in this tree's dist (its source moved or gone) is never published: prepack empties
    // dist and builds again. Anything else that is not needed is.
    const stale = (f: string): boolean =>
      new RegExp(`^dist/(${SHIPPED_SOURCES.join('|')})/.*\\.(js|d\\.ts)$`).test(f) && !needed.includes(f);
    expect(
      files.filter((f) => !needed.includes(f) && !stale(f)),
      'shipped but not needed (a test, a source...)',
    ).to.deep.equal([]);
    expect(
      needed.filter((f) => !files.includes(f)),
      'needed but not shipped (build first)',
    ).to.deep.equal([]);
    expect(files).to.include.members([
      'LICENSE',
      'README.md',
      'package.json',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/compare/ink-f1.js',
      'dist/middleware/upstream/compare-worker.js',
      'dist/renderer/pool/render-worker.js',
      ...Object.values(manifest.bin),
      'dist/server/server.js',
      'dist/web/app.js',
      'CHANGELOG.md',
    ]);
    // Every subpath export (./router, ./renderer, ./stores/...) ships its module and its types.
    const targets = Object.values(manifest.exports).flatMap((t) =>
      typeof t === 'string' ? [t] : [t.types, t.default],
    );
    expect(targets.length).to.be.greaterThan(10);
    expect(files).to.include.members(targets.map((t) => t.replace(/^\.\//, '')));
    const unwanted = files.filter((f) =>
      /^(dist\/(test|bench|tools)\/|corpus\/|test\/|bench\/|docs\/)|\.tsbuildinfo$/.test(f),
    );
    expect(unwanted).to.deep.equal([]);
    // The preview page's own references resolve inside the package (scripts from dist/web, the rest from web/).
    for (const html of ['web/index.html', 'web/shadow.html']) {
      for (const [, ref] of readFileSync(join(REPO, html), 'utf8').matchAll(/(?:src|href)="([^"#?:]+)"/g)) {
        const name = ref!.replace(/^preview\//, '');
        const shipped = name.endsWith('.js') ? `dist/web/${name}` : `web/${name}`;
        expect(files, `${html} -> ${ref}`).to.include(shipped);
      }
    }
  });

  it('names only paths that exist in `files`, an MIT LICENSE, and builds on prepack rather than at install', () => {
    const missing = manifest.files.filter((f) => !f.startsWith('!') && !existsSync(join(REPO, f)));
    expect(missing).to.deep.equal([]);
    expect(manifest.license).to.equal('MIT');
    expect(readFileSync(join(REPO, 'LICENSE'), 'utf8')).to.match(
      /^MIT License\n\nCopyright \(c\) \d{4} zpl-legacy-compat contributors\n/,
    );
    expect(
      Object.keys(manifest.scripts).filter((name) => ['preinstall', 'install', 'postinstall'].includes(name)),
    ).to.deep.equal([]);
    // `prepare` runs on a clone's own `npm install`, never on a consumer's: it installs the clone's commit hook,
    // from a folder the package does not ship.
    expect(manifest.scripts.prepare).to.contain('.githooks/install.mjs');
    expect(manifest.files.filter((f) => f.includes('.githooks'))).to.deep.equal([]);
    expect(manifest.scripts.prepack).to.contain('tsc -p tsconfig.json');
    expect(manifest.scripts.prepack, 'prepack empties dist first').to.match(
      /^node -e "require\('fs'\)\.rmSync\('dist'/,
    );
  });
});
