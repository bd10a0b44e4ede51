// layout(): the display list of one label as JSON-ready data, each element tied to the ZPL bytes that made it.

import { expect } from 'chai';
import { layout, RenderError, type LayoutElement } from '../index.js';
import { openDocument } from '../renderer/layout/document.js';
import type { GlyphRunElement } from '../renderer/display/display-list.js';

const opts = { dpmm: 8 as const, widthIn: 4, heightIn: 6 };

/** The ZPL text an element's span covers. */
const source = (zpl: string, e: LayoutElement) => zpl.slice(e.span.start, e.span.end);

function thrown(fn: () => unknown): RenderError {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(RenderError);
    return e as RenderError;
  }
  throw new Error('layout did not fail');
}

describe('layout(): the display list', () => {
  const zpl =
    '^XA^FO10,20^GB100,50,4^FS^FO50,300^A0N,40^FDHello^FS^FO400,400^GFA,4,4,1,F0F0F0F0^FS^FO20,600^FR^GC80,6^FS^XZ';

  it('gives rects, glyph runs, bitmaps and paths with boxes in dots and the bytes of their field', () => {
    const r = layout(zpl, opts);
    expect([r.totalCount, r.index, r.width, r.height]).to.deep.equal([1, 0, 812, 1218]);
    const kinds = r.elements.map((e) => e.kind);
    expect(kinds).to.deep.equal(['rect', 'rect', 'rect', 'rect', 'glyphRun', 'bitmap', 'path']);
    const [top] = r.elements;
    expect(top.box).to.deep.equal({ x: 10, y: 20, width: 100, height: 4 });
    expect(source(zpl, top)).to.equal('^FO10,20^GB100,50,4^FS');

    const text = r.elements[4];
    if (text.kind !== 'glyphRun') throw new Error('not a glyph run');
    expect(text.text).to.equal('Hello');
    expect(source(zpl, text)).to.equal('^FO50,300^A0N,40^FDHello^FS');
    expect(text.glyphs.map((g) => g.cp)).to.deep.equal([...'Hello'].map((c) => c.codePointAt(0)));
    // Ink of a 40-dot font 0 line at ^FO50,300: starts near x 50, below y 300, under 40 dots tall.
    expect(text.box.x).to.be.within(48, 56);
    expect(text.box.y).to.be.within(296, 312);
    expect(text.box.height).to.be.within(20, 40);
    expect(Object.keys(text.outlines)).to.not.be.empty;

    const bmp = r.elements[5];
    if (bmp.kind !== 'bitmap') throw new Error('not a bitmap');
    expect([bmp.x, bmp.y, bmp.width, bmp.height, bmp.stride]).to.deep.equal([400, 400, 8, 4, 1]);
    expect(Buffer.from(bmp.bits, 'base64')).to.deep.equal(Buffer.from([0xf0, 0xf0, 0xf0, 0xf0]));

    const ring = r.elements[6];
    expect(ring.ink).to.equal('reverse');
    expect(ring.box).to.deep.equal({ x: 20, y: 600, width: 80, height: 80 });
    expect(r.elements.slice(0, 6).every((e) => e.ink === 'normal' && e.color === 'black')).to.equal(true);
  });

  it('is plain JSON: a round trip changes nothing', () => {
    const r = layout(zpl, opts);
    expect(JSON.parse(JSON.stringify(r))).to.deep.equal(r);
  });

  it('lays out the label asked for, ^PQ copies counted, and says whether it is mirrored or turned', () => {
    const two = '^XA^FO1,1^GB5,5,5^FS^XZ^XA^POI^PMY^PQ2^FO9,9^GB7,7,7^FS^XZ';
    const r = layout(two, { ...opts, index: 2 });
    expect(r.totalCount).to.equal(3);
    expect(r.elements.map((e) => e.box)).to.deep.equal([{ x: 9, y: 9, width: 7, height: 7 }]);
    expect([r.mirror, r.invert]).to.deep.equal([true, true]);
  });

  it('marks white ink and keeps the span of a field that ^FS did not end', () => {
    const z = '^XA^FO5,5^GB50,50,50,W^FS^FO0,0^A0N,20^FDx^XZ';
    const r = layout(z, opts);
    expect(r.elements[0].color).to.equal('white');
    expect(source(z, r.elements[1])).to.equal('^FO0,0^A0N,20^FDx^XZ');
  });

  it('gives the print area of a ^PW narrower than the label', () => {
    const r = layout('^XA^PW400^FO0,0^A0N,50^FDH^FS^FO0,60^ADN,18^FDH^FS^XZ', opts);
    expect(r.printArea).to.deep.equal({ x: 206, width: 400 });
    expect(layout('^XA^FO0,0^GB5,5,5^FS^XZ', opts).printArea).to.equal(undefined);
  });

  it('lays out for the backend asked: curves only for vector output', () => {
    const z = '^XA^FO10,10^A0N,37,29^FDWavy glyphs^FS^XZ';
    const runOf = (output?: 'raster' | 'vector') => {
      const e = openDocument(z, { ...opts, ...(output && { output }) })
        .label(0)
        .elements.find((x) => x.kind === 'glyphRun');
      if (!e) throw new Error('no glyph run');
      return e as GlyphRunElement;
    };
    const vector = runOf('vector'),
      raster = runOf('raster');
    expect(Object.keys(vector.curves ?? {})).to.not.be.empty;
    // The raster list has each glyph's outline (by code point) and nothing else; glyphs, box and outlines match the vector list's.
    expect(raster.curves).to.equal(undefined);
    expect(Object.keys(raster.outlines).sort()).to.deep.equal(
      [...new Set(raster.glyphs.map((g) => String(g.cp)))].sort(),
    );
    expect(raster.glyphs).to.deep.equal(vector.glyphs);
    expect(raster.box).to.deep.equal(vector.box);
    for (const [k, o] of Object.entries(raster.outlines)) expect(o).to.deep.equal(vector.outlines[k]);
    // Without a kind, everything (layout() gives it).
    expect(runOf().curves).to.deep.equal(vector.curves);
  });

  it('throws RenderErrors as render() does', () => {
    expect(thrown(() => layout('^XA^FO1,1^GB5,5^FS^XZ', { ...opts, index: 1 })).code).to.equal('index-out-of-range');
    expect(thrown(() => layout('^XA^XZ', { ...opts, widthIn: 100, heightIn: 100 })).code).to.equal('too-large');
    expect(thrown(() => layout('^XA^PQ60^FO1,1^GB5,5^FS^XZ', opts)).code).to.equal('too-many-labels');
  });
});
