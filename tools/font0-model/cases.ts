// The glyph cases of the corpus the models are fitted to: labels of one field repeating one glyph of font 0
// (zplab's labelary_text_default_images) or of a device font (labelary_devicefont_images), the held-out tenth
// (bench/holdout.ts) left out. Each comes with its
// reference image and where our layout puts each copy of the glyph; the glyph is drawn here, not by the layout,
// so that a candidate weight, offset or advance costs one coverage mask, not a whole render.

import { loadCorpus, readCorpusFile } from '../../bench/corpus.js';
import { foldOf } from '../../bench/holdout.js';
import { cropTopLeft, type GreyImage } from '../../compare/ink-f1.js';
import { decodeGreyPng } from '../../compare/png.js';
import { layout } from '../../renderer/layout/inspect.js';
import { deviceFonts, placeDeviceGlyph } from '../../renderer/fonts/device-fonts.js';
import { placeFont0Glyph } from '../../renderer/fonts/font0.js';
import type { PlacedOutline } from '../../renderer/fonts/place.js';

export interface GlyphCase {
  id: string;
  /** Font name: '0', or a device font 'A'..'H' (magnified mx by my). */
  font: string;
  mx: number;
  my: number;
  cp: number;
  /** Font height and width in dots (^A0N,h,w). */
  h: number;
  w: number;
  /** Pen point of the first copy (whole dots) and how many copies follow it along the line. */
  x0: number;
  y: number;
  copies: number;
  /** Dots between copies as laid out. */
  pitch: number;
  reference: GreyImage;
  heldOut: boolean;
  /** The glyph placed as its font places it, before any model adjusts it. */
  place(): PlacedOutline | null;
}

/**
 * Every single-glyph case in upright orientation of font 0 (`font` '0') or of the device fonts (any other value);
 * `withHeldOut` adds the held-out ones (for reports only): those of `fold` (bench/holdout.ts; 0, the held-out tenth).
 */
export async function glyphCases(withHeldOut = false, font = '0', fold = 0): Promise<GlyphCase[]> {
  const corpus = loadCorpus();
  const out: GlyphCase[] = [];
  const folder = font === '0' ? 'labelary_text_default_images/' : 'labelary_devicefont_images/';
  for (const c of corpus.cases) {
    if (!c.png || !c.id.includes(folder)) continue;
    const heldOut = foldOf(c.id) === fold;
    if (heldOut && !withHeldOut) continue;
    const zpl = readCorpusFile(corpus, c.zpl);
    const laid = layout(zpl, { dpmm: c.dpmm, widthIn: c.widthIn, heightIn: c.heightIn, index: c.index ?? 0 });
    const runs = laid.elements.filter((e) => e.kind === 'glyphRun');
    if (laid.elements.length !== 1 || runs.length !== 1) continue;
    const run = runs[0]!;
    const key = /^([0A-H]):(\d+):(\d+)$/.exec(run.font);
    const cps = new Set(run.glyphs.map((g) => g.cp));
    if (!key || (key[1] === '0') !== (font === '0') || cps.size !== 1 || run.orientation !== 'N' || !run.glyphs.length)
      continue;
    const name = key[1]!,
      a = Number(key[2]),
      b = Number(key[3]);
    const cp = run.glyphs[0]!.cp;
    const reference = cropTopLeft(await decodeGreyPng(readCorpusFile(corpus, c.png)), c.referenceCrop);
    const g0 = run.glyphs[0]!;
    const pitch = run.glyphs.length > 1 ? run.glyphs[1]!.x - g0.x : 0;
    const common = {
      id: c.id,
      font: name,
      cp,
      x0: g0.x,
      y: g0.y,
      copies: run.glyphs.length,
      pitch,
      reference,
      heldOut,
    };
    // Font keys: 0:height:width, device fonts name:mx:my.
    if (name === '0') out.push({ ...common, h: a, w: b, mx: 1, my: 1, place: () => placeFont0Glyph(cp, a, b / a) });
    else {
      const cell = deviceFonts[name]!;
      out.push({
        ...common,
        h: cell.cellHeight * b,
        w: cell.width * a,
        mx: a,
        my: b,
        place: () => placeDeviceGlyph(name, cp, a, b),
      });
    }
  }
  return out;
}
