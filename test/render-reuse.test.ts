// Rasters reuse one pixel buffer per thread: labels rendered back to back (in process, and in one pool
// worker) come out byte for byte as when rendered first, so no label's pixels reach another's output.

import { expect } from 'chai';
import { render, type RenderRequest } from '../renderer/index.js';
import { createRenderPool } from '../renderer/pool/index.js';
import { decodePng } from './helpers/png.js';

const BLACK = '^XA^FO0,0^GB406,203,203^FS^XZ';
const BOX = '^XA^FO10,10^GB40,30,30^FS^XZ';
const TEXT = '^XA^FO20,20^A0N,40,40^FDReuse^FS^XZ';
const PNG: RenderRequest = { dpmm: 8, widthIn: 2, heightIn: 1, format: 'png', index: 0 };
const VARIANTS: RenderRequest[] = [
  PNG,
  { ...PNG, rotation: 90 },
  { ...PNG, quality: 'bitonal' },
  { ...PNG, format: 'pdf', index: undefined },
];

describe('raster reuse', function () {
  this.timeout(60_000);

  it('renders each label the same after any other label, in process', async () => {
    for (const req of VARIANTS) {
      const first = new Map<string, Buffer>();
      for (const zpl of [BOX, TEXT]) first.set(zpl, Buffer.from((await render(zpl, req)).body));
      for (const zpl of [BLACK, BOX, BLACK, TEXT, BOX, BLACK, TEXT]) {
        const body = Buffer.from((await render(zpl, req)).body);
        if (first.has(zpl)) expect(body.equals(first.get(zpl)!), `${zpl} ${JSON.stringify(req)}`).to.equal(true);
      }
    }
    // And the pixels are what the label draws: ink only inside the box.
    await render(BLACK, PNG);
    const box = decodePng((await render(BOX, PNG)).body);
    let ink = 0;
    for (let i = 0; i < box.gray.length; i++) if (box.gray[i] < 128) ink++;
    expect(ink).to.equal(40 * 30);
  });

  it('renders each label the same after any other label in one pool worker', async () => {
    const pool = createRenderPool({ threads: 1, expressThreads: 0 });
    try {
      const expected = new Map<string, Buffer>();
      for (const zpl of [BOX, TEXT]) expected.set(zpl, Buffer.from((await pool.render(zpl, PNG)).body)); // a fresh worker's
      for (const zpl of [BLACK, BOX, BLACK, TEXT, BLACK, BOX, TEXT]) {
        const body = Buffer.from((await pool.render(zpl, PNG)).body);
        if (expected.has(zpl)) expect(body.equals(expected.get(zpl)!), zpl).to.equal(true);
      }
    } finally {
      await pool.close();
    }
  });
});
