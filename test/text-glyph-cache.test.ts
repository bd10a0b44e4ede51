// The glyph cache is bounded by bytes, keeps what was used last, and never keeps a huge mask; renders that
// meet many new font sizes leave it within its bound and draw the same pixels whether it is warm or cold.

import { expect } from 'chai';
import { render } from '../renderer/index.js';
import {
  GLYPH_CACHE_BYTES,
  GlyphCache,
  glyphCache,
  MAX_CACHED_GLYPH_BYTES,
  type GlyphMask,
} from '../renderer/raster/glyph-mask.js';
import { OUTLINE_CACHE_BYTES, outlineCache } from '../renderer/fonts/face.js';

const mask = (bytes: number): GlyphMask => ({ x: 0, y: 0, w: bytes, h: 1, cov: new Uint8Array(bytes) });

describe('glyph cache', () => {
  it('evicts the least recently used masks past its byte bound', () => {
    const cache = new GlyphCache(10_000, 5_000);
    let made = 0;
    const get = (key: string) =>
      cache.get('font', key.charCodeAt(0), () => {
        made++;
        return mask(3_000);
      });
    get('a');
    get('b');
    get('c');
    expect(made).to.equal(3);
    expect(cache.bytes).to.be.at.most(10_000);
    get('a'); // a is used again: b is now the oldest
    get('d');
    expect(cache.size).to.equal(3);
    made = 0;
    get('a');
    get('c');
    get('d');
    expect(made).to.equal(0);
    get('b');
    expect(made).to.equal(1);
  });

  it('gives a hit entry a second chance instead of reordering on every hit', () => {
    const cache = new GlyphCache(10_000, 5_000);
    let made = 0;
    const get = (group: string, key: number) =>
      cache.get(group, key, () => {
        made++;
        return mask(3_000);
      });
    get('x', 1);
    get('x', 2);
    get('y', 1); // x1, x2, y1: full
    get('x', 1);
    get('x', 1); // x1 marked used; its place in the sweep order stays
    get('z', 1); // sweeps: x1 used -> moved back unmarked; x2 dropped
    expect(cache.size).to.equal(3);
    made = 0;
    get('x', 1);
    get('y', 1);
    get('z', 1);
    expect(made).to.equal(0);
    get('x', 2);
    expect(made).to.equal(1);
    expect(cache.find('x', 2)).to.not.equal(undefined);
    expect(cache.find('nothing', 2)).to.equal(undefined);
    expect(cache.bytes).to.be.at.most(10_000);
    // A kept null (a blank glyph) is a hit, not a miss.
    const blanks = new GlyphCache(10_000, 5_000);
    blanks.keep('b', 32, null);
    expect(blanks.find('b', 32)).to.equal(null);
  });

  it('draws a huge mask but does not keep it', () => {
    const cache = new GlyphCache(10_000_000, 1_000);
    let made = 0;
    const huge = () => {
      made++;
      return mask(50_000);
    };
    expect(cache.get('huge', 1, huge)?.cov.length).to.equal(50_000);
    expect(cache.get('huge', 1, huge)?.cov.length).to.equal(50_000);
    expect(made).to.equal(2);
    expect(cache.size).to.equal(0);
    expect(cache.bytes).to.equal(0);
  });

  it('stays within its bound across renders of many new ^A0 sizes, drawing the same pixels warm and cold', async function () {
    this.timeout(120_000);
    const sizes = Array.from({ length: 40 }, (_, i) => 60 + i * 13);
    const zpl = `^XA${sizes.map((s, i) => `^FO10,${10 + (i % 8) * 90}^A0N,${s},${s}^FDAbg^FS`).join('')}^XZ`;
    const req = { dpmm: 24 as const, widthIn: 4, heightIn: 4, format: 'png' as const, index: 0 };
    glyphCache.clear();
    const cold = await render(zpl, req);
    expect(glyphCache.bytes).to.be.at.most(GLYPH_CACHE_BYTES);
    expect(glyphCache.size).to.be.greaterThan(0);
    expect(outlineCache.bytes).to.be.at.most(OUTLINE_CACHE_BYTES);
    expect(outlineCache.size).to.be.greaterThan(0);
    const warm = await render(zpl, req);
    expect(Buffer.compare(Buffer.from(cold.body), Buffer.from(warm.body))).to.equal(0);
    // Larger sizes than a cached mask may hold are drawn, not kept.
    const before = glyphCache.size;
    await render('^XA^FO0,0^A0N,2000,2000^FDW^FS^XZ', { ...req, widthIn: 15, heightIn: 15 });
    expect(glyphCache.size).to.equal(before);
    expect(MAX_CACHED_GLYPH_BYTES).to.be.lessThan(2000 * 1000);
  });
});
