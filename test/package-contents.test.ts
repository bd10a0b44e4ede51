// What `npm pack` ships: the built library, CLIs, the standalone server and examples with README and LICENSE; never the tests,
// benchmarks, font measuring scripts or the reference corpus. No install-time scripts for consumers (`prepare`, which
// installs a clone's commit hook, runs only on the clone's own install).

import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO = process.cwd();

describe('npm package contents', function () {
  this.timeout(120_000);
  const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as {
    files: string[];
    scripts: Record<string, string>;
    bin: Record<string, string>;
    license: string;
  };

  it('ships the library, CLIs, README and LICENSE, and no tests, benchmarks or corpus', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '--silent'], { cwd: REPO });
    const files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
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
    ]);
    const unwanted = files.filter((f) => /^(dist\/(test|bench|tools)\/|corpus\/|test\/|bench\/)/.test(f));
    expect(unwanted).to.deep.equal([]);
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
  });
});
