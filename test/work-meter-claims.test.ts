// What a stage claims on the request's work meter and gives back: a buffer it holds for the request stays claimed,
// scratch it drops when it is done is released, so a document of many labels or images holds only what is alive.

import { expect } from 'chai';
import type { GlyphRunElement } from '../renderer/display/display-list.js';
import { decodePngToBitmap } from '../renderer/decode/png-decode.js';
import { RenderError } from '../renderer/errors.js';
import { resample } from '../renderer/outputs/density/bitmap.js';
import { encodePng } from '../renderer/encoders/png.js';
import { applyEdits } from '../renderer/outputs/density/edits.js';
import { fillPath } from '../renderer/raster/fill-path.js';
import { glyphMask } from '../renderer/raster/glyph-mask.js';
import { Raster } from '../renderer/raster/raster.js';
import { render } from '../renderer/render.js';
import { WorkMeter } from '../renderer/work-meter.js';
import { pngSamples } from './helpers/decoder-samples.js';
import { decodePng } from './helpers/png.js';

describe('work meter claims', () => {
  it('keeps a decoded PNG image its pixels; its inflated data and rows are given back', () => {
    for (const png of pngSamples()) {
      const meter = new WorkMeter();
      const bmp = decodePngToBitmap(png, meter);
      expect(meter.used).to.equal(bmp.stride * bmp.height);
    }
  });

  it('claims a resampled bitmap where it is made', () => {
    const meter = new WorkMeter();
    const src = { data: new Uint8Array([0xff, 0xff, 0x00, 0x00]), stride: 1, width: 8, height: 4 };
    const up = resample(src, 4, meter, 'A test bitmap');
    expect(up).to.include({ width: 32, height: 16, stride: 4 });
    expect(meter.used).to.equal(4 * 16);
    expect(() => resample(src, 4, new WorkMeter(63), 'A test bitmap')).to.throw(/^A test bitmap needs 64 bytes/);
  });

  it('writes a converted document once, into bytes claimed at its size', () => {
    const meter = new WorkMeter();
    const zpl = Buffer.from('^XA^FO10,20^FDab^FS^XZ', 'latin1');
    const out = applyEdits(
      zpl,
      [
        { start: 6, end: 11, text: '20,40' },
        { start: 15, end: 15, text: '\xe9' },
      ],
      meter,
    );
    expect(Buffer.from(out).toString('latin1')).to.equal('^XA^FO20,40^FDa\xe9b^FS^XZ');
    expect(meter.used).to.equal(out.length);
  });

  it('claims a filled shape while it is drawn and gives it back after', () => {
    const diamond = [[50, 5, 95, 50, 50, 95, 5, 50]];
    const meter = new WorkMeter();
    fillPath(new Raster(100, 100), diamond, 'black', meter);
    expect(meter.used).to.equal(0);
    expect(() => fillPath(new Raster(100, 100), diamond, 'black', new WorkMeter(10_000)))
      .to.throw(RenderError)
      .with.property('message')
      .that.matches(/^A filled shape \(its coverage tables\) needs \d+ bytes/);
  });

  it("claims a new glyph mask while it is made; the one kept is the glyph cache's", () => {
    // A turned, crisp glyph: its coverage, the turned copy and the thresholded one are all made and claimed.
    const run = { outlines: { 65: [[0, -40, 30, -40, 30, 0, 0, 0]] }, orientation: 'R', crisp: true };
    const meter = new WorkMeter();
    const m = glyphMask('work-meter-claims:R:1', run as unknown as GlyphRunElement, { cp: 65, x: 0, y: 0 }, meter);
    expect(m).to.include({ w: 40, h: 31 });
    expect(meter.used).to.equal(0);
    expect(() =>
      glyphMask(
        'work-meter-claims:R:1:small',
        run as unknown as GlyphRunElement,
        { cp: 65, x: 0, y: 0 },
        new WorkMeter(100),
      ),
    ).to.throw(RenderError, /^A glyph cell grid needs/);
  });

  it("holds one label's shapes at a time: 50 labels fit a budget that holds one", async () => {
    // 2x2 in at 8 dpmm: 406 x 406 dots, claimed twice (raster and encoding); a 300-dot circle's tables about 0.5 MB.
    const zpl = '^XA^FO50,50^GC300,150^FS^FO20,20^A0N,30,30^FDshape^FS^PQ50^XZ';
    const req = { dpmm: 8, widthIn: 2, heightIn: 2, maxDocumentBytes: 1_500_000 } as const;
    for (const format of ['pdf', 'pcl6'] as const) {
      const res = await render(zpl, { ...req, format, ...(format === 'pdf' && { pdf: 'raster' as const }) });
      expect(res.pages, format).to.equal(50);
    }
    const err = await render(zpl.replace('GC300', 'GC400'), { ...req, format: 'png', maxDocumentBytes: 600_000 }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(RenderError).with.property('code', 'memory');
  });

  it("claims the PNG encoder's tokens for a noisy label while it is encoded", () => {
    // A checkerboard is a token a pixel: 2.2 M of them outgrow any token buffer kept between labels (1 M).
    const [width, height] = [2000, 1100];
    const noisy = (): Raster => {
      const r = new Raster(width, height);
      for (let i = 0; i < r.ink.length; i++) r.ink[i] = ((i % width) + Math.floor(i / width)) & 1 ? 255 : 0;
      return r;
    };
    const meter = new WorkMeter();
    const png = encodePng(noisy(), false, undefined, meter);
    expect(decodePng(png)).to.include({ width, height });
    expect(meter.used).to.equal(0);
    expect(() => encodePng(noisy(), false, undefined, new WorkMeter(1_000_000)))
      .to.throw(RenderError)
      .with.property('message')
      .that.matches(/^The PNG encoder \(its tokens, one a run of pixels\) needs \d+ bytes/);
  });

  it('gives the encoder the share reserved for it: the largest label, turned, fits the default budget', async function () {
    this.timeout(60_000);
    // 15 x 15 in at 24 dpmm: 3 x 83.6 MB reserved (raster, encoding, turned copy); dense text grows 16 MB of tokens.
    let zpl = '^XA';
    for (let y = 0; y < 8800; y += 60)
      zpl += `^FO20,${y}^A0N,50,40^FDLine ${y} ${'ABCDEFGHIJKLMNOPQRSTUVWXYZ '.repeat(5)}^FS`;
    const res = await render(`${zpl}^XZ`, { dpmm: 24, widthIn: 15, heightIn: 15, format: 'png', rotation: 90 });
    expect(decodePng(res.body)).to.include({ width: 9135, height: 9135 });
  });
});
