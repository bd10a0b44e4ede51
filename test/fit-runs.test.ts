import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { foldOf, isHeldOut } from '../bench/holdout.js';
import type { CorpusCase } from '../bench/corpus.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOOL = path.join(ROOT, 'dist/tools/font0-model/fit-runs.js');
/** GOGREEN in font 0 at 28 dots, in six orientations and two ways of placing it: two of them are in the held-out tenth. */
const GOGREEN = [
  'text_fo_n',
  'text_fo_b',
  'text_fo_i',
  'text_fo_r',
  'text_ft_n',
  'text_ft_b',
  'text_ft_i',
  'text_ft_r',
].map((name) => `labelize/unit/${name}`);

/** A corpus of the GOGREEN labels under `dir`, each reference of fold `fold` replaced by `heldPng` when given. */
function gogreenCorpus(dir: string, heldPng?: Buffer, fold = 0): string {
  const all = JSON.parse(readFileSync(path.join(ROOT, 'corpus/manifest.json'), 'utf8')) as CorpusCase[];
  const cases = all.filter((c) => GOGREEN.includes(c.id));
  for (const c of cases) {
    for (const file of [c.zpl, c.png!]) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      cpSync(path.join(ROOT, 'corpus', file), path.join(dir, file));
    }
    if (heldPng && foldOf(c.id) === fold) writeFileSync(path.join(dir, c.png!), heldPng);
  }
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(cases));
  return path.join(dir, 'manifest.json');
}

async function fitRuns(manifest: string, out: string, fold = 0): Promise<{ table: string; log: string }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [TOOL, '--manifest', manifest, '--out', out, '--fold', String(fold)],
    { maxBuffer: 1 << 24 },
  );
  return { table: readFileSync(out, 'utf8'), log: stdout };
}

describe('font 0 run advance tool (tools/font0-model/fit-runs)', function () {
  // Two runs of the tool, each rendering the labels a few hundred times: seconds, more on a loaded machine.
  this.timeout(0);
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'fit-runs-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('fits advances to the labels it may read, and never reads the held-out tenth', async () => {
    const held = GOGREEN.filter(isHeldOut);
    expect(held.length, 'the corpus holds GOGREEN labels out').to.be.greaterThan(0);
    expect(held.length).to.be.lessThan(GOGREEN.length - 1);
    const real = await fitRuns(gogreenCorpus(path.join(dir, 'real')), path.join(dir, 'real.ts'));
    // Each held-out reference replaced by bytes that are no PNG: the tool fails if it opens one.
    const altered = await fitRuns(
      gogreenCorpus(path.join(dir, 'altered'), Buffer.from('not a PNG')),
      path.join(dir, 'altered.ts'),
    );
    expect(altered.table).to.equal(real.table);
    expect(real.log).to.match(new RegExp(`^${GOGREEN.length - held.length} labels draw font 0`, 'm'));
    // The labels agree on a pen for GOGREEN's letters at 28 dots that the boxes alone miss: a move, raising them.
    const band44 = /maxHeight: 44,\n {4}advances: \{\n(.*)\n/.exec(real.table)?.[1] ?? '';
    expect(band44).to.match(/\b(71|79|82|69|78): -?0\.0\d+,/);
    const [first, last] = [
      /strict F1 (0\.\d+) \(mean\)/.exec(real.log)![1]!,
      [...real.log.matchAll(/strict F1 (0\.\d+) \(mean\)/g)].pop()![1]!,
    ];
    expect(Number(last)).to.be.greaterThan(Number(first));
  });

  it('with --fold k, holds out fold k in place of the held-out tenth (for npm run cross-validate), and marks its table', async () => {
    const fold = 4;
    const held = GOGREEN.filter((id) => foldOf(id) === fold);
    expect(held.length, 'fold 4 holds GOGREEN labels').to.be.greaterThan(0);
    const real = await fitRuns(gogreenCorpus(path.join(dir, 'fold'), undefined, fold), path.join(dir, 'fold.ts'), fold);
    const altered = await fitRuns(
      gogreenCorpus(path.join(dir, 'fold-altered'), Buffer.from('not a PNG'), fold),
      path.join(dir, 'fold-altered.ts'),
      fold,
    );
    expect(altered.table).to.equal(real.table);
    expect(real.log).to.match(
      new RegExp(`^${GOGREEN.length - held.length} labels draw font 0 \\(fold ${fold} excluded\\)`, 'm'),
    );
    expect(real.table).to.match(/^\/\/ Cross-validation: fitted with fold 4 held out/);
  });
});
