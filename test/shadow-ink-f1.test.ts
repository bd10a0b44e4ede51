// The shadow comparison scores like ../shared/tools/zpl-fidelity.mjs: checked against that tool's own
// code (loaded only here, in tests) on random images and on real legacy references.

import { expect } from 'chai';
import fc from 'fast-check';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inkF1, type GreyImage } from '../middleware/upstream/ink-f1.js';
import { createPngComparer } from '../middleware/upstream/png-comparer.js';
import { render as renderZpl } from '../renderer/index.js';
import { boxPng, greyPng } from './helpers/upstream-png.js';

const SHARED = join(process.cwd(), '..', 'shared');
const PNGLITE = join(SHARED, 'tools', 'pnglite.mjs');

interface Pnglite {
  decodePng(buf: Uint8Array): { width: number; height: number; gray: Uint8Array };
  compare(ref: unknown, got: unknown, diffFile: null): { f1: number };
}

interface FixtureCase { id: string; zpl: string; png?: string; dpmm: 6 | 8 | 12 | 24; widthIn: number; heightIn: number; index?: number; group: string }

describe('shadow comparison metric (ink F1, one-pixel tolerance)', function () {
  let tool: Pnglite;

  before(async function () {
    if (!existsSync(PNGLITE)) this.skip();
    tool = (await import(pathToFileURL(PNGLITE).href)) as Pnglite;
  });

  const asTool = (image: GreyImage) => ({ width: image.width, height: image.height, gray: image.grey });

  it('gives the same score as the fidelity tool on random images', () => {
    const image = (width: number, height: number) => fc.uint8Array({ minLength: width * height, maxLength: width * height })
      .map((grey): GreyImage => ({ width, height, grey }));
    const pair = fc.record({ width: fc.integer({ min: 1, max: 12 }), height: fc.integer({ min: 1, max: 12 }) })
      .chain(({ width, height }) => fc.tuple(image(width, height), image(width, height)));
    fc.assert(fc.property(pair, ([reference, rendered]) => {
      expect(inkF1(reference, rendered)).to.equal(tool.compare(asTool(reference), asTool(rendered), null).f1);
    }));
  });

  it('scores 1 for identical ink, 0 for different sizes, and 1 for ink one pixel off', () => {
    const grey = (png: Buffer): GreyImage => {
      const { width, height, gray } = tool.decodePng(png);
      return { width, height, grey: gray };
    };
    const box = grey(boxPng(30, 20, { x: 5, y: 5, w: 10, h: 6 }));
    expect(inkF1(box, box)).to.equal(1);
    expect(inkF1(box, grey(boxPng(31, 20, { x: 5, y: 5, w: 10, h: 6 })))).to.equal(0);
    expect(inkF1(box, grey(boxPng(30, 20, { x: 6, y: 4, w: 10, h: 6 })))).to.equal(1);
    expect(inkF1(box, grey(greyPng(30, 20, () => false)))).to.equal(0);
  });

  it('decodes with jimp to the scores the tool gives for our renderings against legacy references', async function () {
    const manifest = join(SHARED, 'fixtures', 'manifest.json');
    if (!existsSync(manifest)) this.skip();
    const cases = (JSON.parse(readFileSync(manifest, 'utf8')) as FixtureCase[]).filter((c) => c.png);
    const picked = ['carrier', 'text', 'barcode', 'graphics'].map((group) => cases.find((c) => c.group === group)!);
    const compare = createPngComparer();
    for (const c of picked) {
      const reference = readFileSync(join(SHARED, 'fixtures', c.png!));
      const ours = await renderZpl(readFileSync(join(SHARED, 'fixtures', c.zpl)), {
        dpmm: c.dpmm, widthIn: c.widthIn, heightIn: c.heightIn, format: 'png', index: c.index ?? 0,
      });
      const expected = tool.compare(tool.decodePng(reference), tool.decodePng(ours.body), null).f1;
      expect(await compare(reference, ours.body), c.id).to.be.closeTo(expected, 1e-9);
    }
  });
});
