// The font 0 glyph cases of the corpus the model is fitted to: labels of one ^A0 field repeating one glyph
// (zplab's labelary_text_default_images), the held-out tenth (bench/holdout.ts) left out. Each comes with its
// reference image and where our layout puts each copy of the glyph; the glyph is drawn here, not by the layout,
// so that a candidate weight, offset or advance costs one coverage mask, not a whole render.

import { loadCorpus, readCorpusFile } from '../../bench/corpus.js';
import { isHeldOut } from '../../bench/holdout.js';
import { cropTopLeft, type GreyImage } from '../../compare/ink-f1.js';
import { decodeGreyPng } from '../../compare/png.js';
import { layout } from '../../renderer/layout/api.js';

export interface GlyphCase {
  id: string;
  cp: number;
  /** Font height and width in dots (^A0N,h,w). */
  h: number;
  w: number;
  /** Pen point of the first copy (whole dots) and how many copies follow it along the line. */
  x0: number;
  y: number;
  copies: number;
  reference: GreyImage;
  heldOut: boolean;
}

/** Every single-glyph font 0 case in upright orientation; `withHeldOut` adds the held-out ones (for reports only). */
export async function glyphCases(withHeldOut = false): Promise<GlyphCase[]> {
  const corpus = loadCorpus();
  const out: GlyphCase[] = [];
  for (const c of corpus.cases) {
    if (!c.png || !c.id.includes('labelary_text_default_images/')) continue;
    const heldOut = isHeldOut(c.id);
    if (heldOut && !withHeldOut) continue;
    const zpl = readCorpusFile(corpus, c.zpl);
    const laid = layout(zpl, { dpmm: c.dpmm, widthIn: c.widthIn, heightIn: c.heightIn, index: c.index ?? 0 });
    const runs = laid.elements.filter((e) => e.kind === 'glyphRun');
    if (laid.elements.length !== 1 || runs.length !== 1) continue;
    const run = runs[0]!;
    const font = /^0:(\d+):(\d+)$/.exec(run.font);
    const cps = new Set(run.glyphs.map((g) => g.cp));
    if (!font || cps.size !== 1 || run.orientation !== 'N' || !run.glyphs.length) continue;
    const h = Number(font[1]), w = Number(font[2]);
    const reference = cropTopLeft(await decodeGreyPng(readCorpusFile(corpus, c.png)), c.referenceCrop);
    out.push({ id: c.id, cp: run.glyphs[0]!.cp, h, w, x0: run.glyphs[0]!.x, y: run.glyphs[0]!.y, copies: run.glyphs.length, reference, heldOut });
  }
  return out;
}
