// Device font B places its full-width capitals at the pen (cf_font_designator): checked through render().

import { expect } from 'chai';
import { render } from '../renderer/render.js';
import { decodePng } from './helpers/png.js';

describe('device font B glyph placement', () => {
  it('starts full-width capitals at the pen of each 9-dot-per-magnification cell', async () => {
    const img = decodePng(
      (await render('^XA^CFB,33^FO50,20^FDHELCJ^FS^XZ', { dpmm: 8, widthIn: 3, heightIn: 1, format: 'png', index: 0 }))
        .body,
    );
    const firstInk = (from: number, to: number) => {
      for (let x = from; x < to; x++)
        for (let y = 0; y < img.height; y++) if (img.gray[y * img.width + x] < 128) return x - from;
      return -1;
    };
    // Magnification 3: a 27-dot advance; every letter's ink begins in its cell's first column.
    expect([0, 1, 2, 3, 4].map((k) => firstInk(50 + 27 * k, 50 + 27 * (k + 1)))).to.deep.equal([0, 0, 0, 0, 0]);
  });
});
