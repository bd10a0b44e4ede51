import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { isHeldOut } from '../bench/holdout.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOOL = path.join(ROOT, 'dist/tools/measure/measure-font0.js');
const FOLDER = 'zplab/labelary_text_default_images';

/** Runs the box measuring tool on a manifest; it writes renderer/fonts/font0-metrics.ts under `cwd`. */
async function measure(manifest: string, cwd: string): Promise<string> {
  mkdirSync(path.join(cwd, 'renderer/fonts'), { recursive: true });
  await promisify(execFile)(process.execPath, [TOOL, manifest], { cwd, maxBuffer: 1 << 24 });
  return readFileSync(path.join(cwd, 'renderer/fonts/font0-metrics.ts'), 'utf8');
}

describe('font 0 box measuring tool (tools/measure/measure-font0)', function () {
  // Two runs of the tool over every font 0 fixture: tens of seconds on a loaded machine.
  this.timeout(0);
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'measure-font0-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the same table whatever the floors say and whatever the held-out tenth shows', async () => {
    // A corpus whose floors are all 1 and whose held-out fixtures all show another glyph.
    const corpus = path.join(dir, 'corpus');
    cpSync(path.join(ROOT, 'corpus', FOLDER), path.join(corpus, FOLDER), { recursive: true });
    cpSync(path.join(ROOT, 'corpus/manifest.json'), path.join(corpus, 'manifest.json'));
    const cases = (
      JSON.parse(readFileSync(path.join(corpus, 'manifest.json'), 'utf8')) as { id: string; png?: string }[]
    ).filter((c) => c.id.startsWith(FOLDER) && c.png);
    const held = cases.filter((c) => isHeldOut(c.id));
    expect(held.length).to.be.greaterThan(10);
    const other = readFileSync(path.join(corpus, FOLDER, 'h50_A.png'));
    for (const c of held) writeFileSync(path.join(corpus, c.png!), other);
    writeFileSync(
      path.join(corpus, 'fidelity-floors.json'),
      JSON.stringify({ cases: Object.fromEntries(cases.map((c) => [c.id, 1])) }),
    );

    const real = await measure(path.join(ROOT, 'corpus/manifest.json'), path.join(dir, 'real'));
    const altered = await measure(path.join(corpus, 'manifest.json'), path.join(dir, 'altered'));
    expect(altered).to.equal(real);
    // And the run measured something: the boxes of the fitted glyphs are there.
    expect(real).to.match(/^ {4}65: \[/m);
  });
});
