// Pixel budget: the largest label the API takes (15x15 inches at 24 dpmm) renders within the budget,
// and one just over it is refused with RenderError 'too-large' before anything is allocated.

import { RenderError } from '../renderer/errors.js';
import { DEFAULT_MAX_PIXELS, labelDots, render } from '../renderer/render.js';
import type { BenchLabel } from './labels.js';
import { peakRss, timed } from './stats.js';

export interface BudgetFigures {
  widthIn: number;
  heightIn: number;
  pixels: number;
  budget: number;
  outcome: string;
  ms: number;
  rssGrowthBytes: number;
}

async function attempt(
  label: BenchLabel,
  widthIn: number,
  heightIn: number,
  maxPixels?: number,
): Promise<BudgetFigures> {
  const before = peakRss();
  const t = await timed(async () => {
    try {
      const r = await render(label.zpl, {
        dpmm: 24,
        widthIn,
        heightIn,
        format: 'png',
        index: 0,
        ...(maxPixels !== undefined && { maxPixels }),
      });
      return `rendered (${(r.body.byteLength / 1024).toFixed(0)} KiB PNG)`;
    } catch (e) {
      return e instanceof RenderError ? `refused: RenderError '${e.code}'` : `failed: ${(e as Error).message}`;
    }
  });
  const pixels = labelDots(widthIn, 24) * labelDots(heightIn, 24);
  return {
    widthIn,
    heightIn,
    pixels,
    budget: maxPixels ?? DEFAULT_MAX_PIXELS,
    outcome: t.value,
    ms: t.wallMs,
    rssGrowthBytes: peakRss() - before,
  };
}

export async function benchPixelBudget(label: BenchLabel): Promise<BudgetFigures[]> {
  // Refusal first, while the peak RSS has not yet seen the big label: its growth must be ~0.
  const refused = await attempt(label, 15, 15, DEFAULT_MAX_PIXELS - 1);
  return [await attempt(label, 15, 15), refused];
}
