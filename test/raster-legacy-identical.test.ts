// Labels the legacy service draws with each of its two rasterizers, rendered here to the same grey value in every
// pixel: a diagonal ^GD and a thick one (its shape filler), font 0 stems and a device font's diagonals (its font
// scaler). A change to either rasterizer that moves one level in one pixel fails here, by name.

import { expect } from 'chai';
import { loadCorpus, readCorpusFile } from '../bench/corpus.js';
import { cropTopLeft } from '../compare/ink-f1.js';
import { decodeGreyPng } from '../compare/png.js';
import { renderPng } from '../renderer/render-png.js';

const IDENTICAL = [
  'zplab/labelary_shape_images/shape_line_diag_steep',
  'labelize/unit/gd_thick',
  'zplab/labelary_text_default_images/h50_I',
  'zplab/labelary_devicefont_images/fB_m1_M',
];

describe('pixel-identical to the legacy renders', () => {
  const corpus = loadCorpus();
  for (const id of IDENTICAL) {
    it(id, async () => {
      const c = corpus.cases.find((k) => k.id === id)!;
      const png = await renderPng(readCorpusFile(corpus, c.zpl), {
        dpmm: c.dpmm,
        widthIn: c.widthIn,
        heightIn: c.heightIn,
        index: c.index ?? 0,
      });
      const ours = await decodeGreyPng(png);
      const reference = cropTopLeft(await decodeGreyPng(readCorpusFile(corpus, c.png!)), c.referenceCrop);
      expect({ width: ours.width, height: ours.height }).to.deep.equal({
        width: reference.width,
        height: reference.height,
      });
      const differ: string[] = [];
      for (let i = 0; i < ours.grey.length && differ.length < 5; i++) {
        if (ours.grey[i] !== reference.grey[i])
          differ.push(`(${i % ours.width},${Math.floor(i / ours.width)}) ${ours.grey[i]} vs ${reference.grey[i]}`);
      }
      expect(differ, 'pixels whose grey differs from the legacy render').to.deep.equal([]);
    });
  }
});
