import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { FITTED_TABLES } from '../tools/font0-model/table-file.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

// The boxes (font0-metrics.ts) are not among FITTED_TABLES: the committed table is older than its tool's rules
// (bench/README.md says why it stays).

describe('fitted glyph tables (renderer/fonts): each is what its tool writes today', function () {
  // Each tool refits on the whole corpus: tens of seconds, minutes on a loaded machine.
  this.timeout(0);
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'fitted-tables-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  // A table left behind by a change to the renderer or the corpus is no longer the references' and the tools'
  // (the run advances were, until e30acee), and npm run cross-validate's fold 0 would not be the committed tables.
  for (const { tool, table } of FITTED_TABLES) {
    it(`${table} is what tools/font0-model/${tool.replace('.js', '.ts')} writes`, async () => {
      const out = path.join(dir, table);
      await promisify(execFile)(process.execPath, [path.join(ROOT, 'dist/tools/font0-model', tool), '--out', out], {
        cwd: ROOT,
        maxBuffer: 1 << 26,
      });
      expect(readFileSync(out, 'utf8')).to.equal(readFileSync(path.join(ROOT, 'renderer/fonts', table), 'utf8'));
    });
  }
});
