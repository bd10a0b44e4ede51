// An 8-bit ink-coverage bitmap: 0 = paper, 255 = full ink. Encoders invert it to grey levels.

import type { InkMode } from '../display/display-list.js';

export type { InkMode };

export class Raster {
  readonly width: number;
  readonly height: number;
  readonly ink: Uint8Array;
  /** `ink` as a DataView: glyph rows are copied onto paper four bytes a move (blitCoverage). */
  readonly #inkView: DataView;
  /**
   * When kept (`trackPainted`): for each row y, the columns [painted[2y], painted[2y + 1]) hold everything drawn in
   * it through these methods; outside them the row is paper (an empty range: a blank row). Encoders skip the rest.
   * Whoever writes `ink` directly must not keep it.
   */
  painted: Int32Array | undefined;

  /** `ink`, when given, must be `width * height` bytes of zeros (a blank label). */
  constructor(width: number, height: number, ink?: Uint8Array, trackPainted = false) {
    this.width = width;
    this.height = height;
    this.ink = ink ?? new Uint8Array(width * height);
    this.#inkView = new DataView(this.ink.buffer, this.ink.byteOffset, this.ink.byteLength);
    this.painted = trackPainted ? blankRows(width, height) : undefined;
  }

  /** Records that columns [x0, x1) of rows [y0, y1) were drawn in (already clipped to the raster). */
  private mark(y0: number, y1: number, x0: number, x1: number): void {
    const p = this.painted;
    if (p === undefined) return;
    for (let i = 2 * y0; i < 2 * y1; i += 2) {
      if (p[i] > x0) p[i] = x0;
      if (p[i + 1] < x1) p[i + 1] = x1;
    }
  }

  /** Combines coverage `cov` (0..255) into one pixel; out-of-bounds pixels are ignored. */
  plot(x: number, y: number, cov: number, mode: InkMode = 'black'): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height || cov <= 0) return;
    const i = y * this.width + x;
    this.mark(y, y + 1, x, x + 1);
    this.ink[i] = combine(this.ink[i], cov > 255 ? 255 : cov, mode);
  }

  /** Fills pixels [x0, x1) of row y with one coverage value. */
  span(y: number, x0: number, x1: number, cov: number, mode: InkMode = 'black'): void {
    if (y < 0 || y >= this.height || cov <= 0) return;
    const a = Math.max(0, x0 | 0);
    const b = Math.min(this.width, x1 | 0);
    if (a >= b) return;
    this.mark(y, y + 1, a, b);
    const row = y * this.width;
    const c = cov > 255 ? 255 : cov;
    if (mode === 'black' && c === 255) {
      this.ink.fill(255, row + a, row + b);
      return;
    }
    if (mode === 'white' && c === 255) {
      this.ink.fill(0, row + a, row + b);
      return;
    }
    if (mode === 'xor' && c === 255) {
      for (let i = row + a; i < row + b; i++) this.ink[i] = 255 - this.ink[i];
      return;
    }
    for (let i = row + a; i < row + b; i++) this.ink[i] = combine(this.ink[i], c, mode);
  }

  /** Fills the integer rectangle [x, x+w) x [y, y+h) completely. */
  fillRect(x: number, y: number, w: number, h: number, mode: InkMode = 'black'): void {
    const y0 = Math.max(0, Math.floor(y));
    const y1 = Math.min(this.height, Math.floor(y + h));
    const a = Math.max(0, Math.floor(x));
    const b = Math.min(this.width, Math.floor(x + w));
    if (a >= b || y0 >= y1) return;
    this.mark(y0, y1, a, b);
    const ink = this.ink;
    if (mode === 'xor') {
      for (let row = y0 * this.width; row < y1 * this.width; row += this.width) {
        for (let i = row + a; i < row + b; i++) ink[i] = 255 - ink[i];
      }
      return;
    }
    const v = mode === 'black' ? 255 : 0;
    // Narrow rectangles (barcode bars, box sides) are cheaper as a loop than one fill() call a row, four dots a move
    // (one unaligned 32-bit store), then the odd dots one at a time.
    if (b - a <= 16) {
      const n = b - a,
        view = this.#inkView,
        word = v === 0 ? 0 : -1;
      for (let row = y0 * this.width + a, end = y1 * this.width + a; row < end; row += this.width) {
        let i = row;
        for (const stop = row + n - 3; i < stop; i += 4) view.setInt32(i, word);
        for (const stop = row + n; i < stop; i++) ink[i] = v;
      }
    } else {
      for (let row = y0 * this.width; row < y1 * this.width; row += this.width) ink.fill(v, row + a, row + b);
    }
  }

  /**
   * Draws a 1-bit image (rows packed MSB first, `stride` bytes a row); set bits are ink.
   * `scaleX`/`scaleY` magnify each bit to a block of dots (^XG, ^IM magnification).
   */
  blitBits(
    bits: Uint8Array,
    stride: number,
    w: number,
    h: number,
    x: number,
    y: number,
    mode: InkMode = 'black',
    scaleX = 1,
    scaleY = 1,
  ): void {
    for (let r = 0; r < h; r++) {
      const rowOff = r * stride;
      let c = 0;
      while (c < w) {
        if ((c & 7) === 0 && bits[rowOff + (c >> 3)] === 0) {
          c += 8;
          continue;
        } // a blank byte: 8 dots of paper
        if (!(bits[rowOff + (c >> 3)] & (0x80 >> (c & 7)))) {
          c++;
          continue;
        }
        let e = c + 1;
        while (e < w && bits[rowOff + (e >> 3)] & (0x80 >> (e & 7))) e++;
        for (let sy = 0; sy < scaleY; sy++) this.span(y + r * scaleY + sy, x + c * scaleX, x + e * scaleX, 255, mode);
        c = e;
      }
    }
  }

  /**
   * Draws an 8-bit coverage mask (e.g. a cached glyph) with its top-left corner at (x, y); `maskView`, the mask's bytes
   * as a DataView, spares making one (cached glyphs keep theirs).
   */
  blitCoverage(
    mask: Uint8Array,
    w: number,
    h: number,
    x: number,
    y: number,
    mode: InkMode = 'black',
    maskView = new DataView(mask.buffer, mask.byteOffset, mask.byteLength),
  ): void {
    // Clip once, then walk mask and raster rows without per-pixel bounds checks.
    const c0 = Math.max(0, -x),
      c1 = Math.min(w, this.width - x);
    const r0 = Math.max(0, -y),
      r1 = Math.min(h, this.height - y);
    if (c0 >= c1 || r0 >= r1) return;
    const ink = this.ink,
      painted = this.painted,
      left = x + c0,
      right = x + c1;
    const inkView = this.#inkView;
    for (let r = r0; r < r1; r++) {
      let m = r * w + c0;
      let d = (y + r) * this.width + left;
      const end = m + (c1 - c0);
      if (painted === undefined) {
        blend(ink, d, mask, m, end - m, mode);
        continue;
      }
      // Only columns drawn in already need a blend: outside the row's drawn range a glyph lies on paper, where black
      // or xor coverage over paper is the coverage itself and white leaves paper as it is. Text runs left to right,
      // so a glyph's row mostly meets the glyph before it only where their boxes overlap, a column or two.
      const at = 2 * (y + r),
        drawnFrom = painted[at],
        drawnTo = painted[at + 1];
      // The row's drawn range takes in the glyph's here, while it is at hand (what `mark` does a row at a time).
      if (drawnFrom > left) painted[at] = left;
      if (drawnTo < right) painted[at + 1] = right;
      if (drawnFrom < right && drawnTo > left) {
        const from = drawnFrom > left ? m + drawnFrom - left : m,
          to = drawnTo < right ? m + drawnTo - left : end;
        if (mode !== 'white') for (; m < from; m++, d++) ink[d] = mask[m];
        blend(ink, d, mask, m, to - m, mode);
        d += to - m;
        m = to;
      }
      if (mode !== 'white') copyOntoPaper(inkView, ink, d, maskView, mask, m, end - m);
    }
  }
}

/**
 * `count` bytes of `mask[m..]` into `ink[d..]` (paper: coverage over it is the coverage itself); four bytes a move,
 * unaligned, which takes half the time of one a move over glyph rows 8-40 dots wide.
 */
function copyOntoPaper(
  inkView: DataView,
  ink: Uint8Array,
  d: number,
  maskView: DataView,
  mask: Uint8Array,
  m: number,
  count: number,
): void {
  const end = m + count;
  for (; m + 4 <= end; m += 4, d += 4) inkView.setInt32(d, maskView.getInt32(m, true), true);
  for (; m < end; m++, d++) ink[d] = mask[m];
}

/** `count` pixels of coverage `mask[m..]` laid over `ink[d..]` in `mode`. */
function blend(ink: Uint8Array, d: number, mask: Uint8Array, m: number, count: number, mode: InkMode): void {
  const end = m + count;
  if (mode === 'black') {
    for (; m < end; m++, d++) {
      const cov = mask[m];
      if (cov === 0) continue;
      const dst = ink[d];
      // combine(dst, cov, 'black') inlined; over paper it is cov, at full coverage 255
      ink[d] = dst === 0 ? cov : cov === 255 ? 255 : dst + ((((255 - dst) * cov + 127) / 255) | 0);
    }
  } else if (mode === 'xor') {
    for (; m < end; m++, d++) {
      const cov = mask[m];
      if (cov === 0) continue;
      ink[d] = cov === 255 ? 255 - ink[d] : combine(ink[d], cov, 'xor'); // full coverage flips
    }
  } else {
    for (; m < end; m++, d++) {
      const cov = mask[m];
      if (cov !== 0) ink[d] = cov === 255 ? 0 : combine(ink[d], cov, 'white');
    }
  }
}

/** Row ranges of a blank raster: each row's range empty. */
function blankRows(width: number, height: number): Int32Array {
  const p = new Int32Array(2 * height);
  for (let i = 0; i < p.length; i += 2) p[i] = width;
  return p;
}

/** Ink after laying coverage `cov` of `mode` over ink `dst` (both 0..255). */
export function combine(dst: number, cov: number, mode: InkMode): number {
  if (mode === 'black') return dst + ((((255 - dst) * cov + 127) / 255) | 0);
  if (mode === 'white') return dst - (((dst * cov + 127) / 255) | 0);
  // xor: full coverage flips the pixel; partial coverage blends toward the flipped value
  return dst + ((((255 - 2 * dst) * cov + (dst > 127 ? -127 : 127)) / 255) | 0);
}
