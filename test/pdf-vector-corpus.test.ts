// Every corpus label's vector PDF, rasterised by poppler at the label's pixel size, matches our PNG of it.
// The corpus is the repository's corpus/.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadCorpus, type CorpusCase } from '../bench/corpus.js';
import { render } from '../renderer/render.js';
import { RenderError } from '../renderer/errors.js';
import { inkF1 } from '../compare/ink-f1.js';
import { decodePng } from './helpers/png.js';
import { hasPoppler, rasterisePdfAsync } from './helpers/poppler.js';

const MIN_F1 = 0.98;

describe('vector PDF of every corpus label', function () {
  this.timeout(0);

  before(function () {
    if (!hasPoppler()) {
      console.log('    (skipped: poppler-utils not installed)');
      this.skip();
    }
  });

  it(`matches our PNG with ink F1 >= ${MIN_F1}`, async () => {
    const { dir, cases } = loadCorpus();
    const below: string[] = [];
    let scored = 0;
    const one = async (c: CorpusCase) => {
      const zpl = readFileSync(path.join(dir, c.zpl));
      const req = { dpmm: c.dpmm, widthIn: c.widthIn, heightIn: c.heightIn, index: c.index ?? 0 };
      let png: ReturnType<typeof decodePng>;
      try {
        png = decodePng((await render(zpl, { ...req, format: 'png' })).body);
      } catch (e) {
        if (e instanceof RenderError) return; // a case the renderer refuses has no PNG to compare with
        throw e;
      }
      const pdf = (await render(zpl, { ...req, format: 'pdf' })).body;
      const f1 = inkF1(
        { width: png.width, height: png.height, grey: png.gray },
        await rasterisePdfAsync(pdf, png.width, png.height),
      );
      scored++;
      if (f1 < MIN_F1) below.push(`${c.id}: ${f1.toFixed(4)}`);
    };
    // Two at a time: poppler runs in its own process while the next label renders.
    for (let i = 0; i < cases.length; i += 2) await Promise.all(cases.slice(i, i + 2).map(one));
    expect(scored).to.be.greaterThan(cases.length / 2);
    expect(below).to.deep.equal([]);
  });
});
