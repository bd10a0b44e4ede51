// Bars of a linear symbol as whole-dot rectangles in the symbol's upright frame.

import type { Canvas } from '../../display/canvas.js';
import type { InkMode } from '../../display/display-list.js';
import { fillFrameRect, type SymbolFrame } from './frame.js';

/** One bar: starts `u` dots along the symbol, `w` dots wide, from `v` down `h` dots (upright frame). */
export interface Bar {
  u: number;
  w: number;
  v: number;
  h: number;
}

/**
 * Bars from alternating run widths in dots (bar, space, bar, ...), all from `v` down `h` dots,
 * starting `u0` dots along. Returns the bars and the total width.
 */
export function barsFromRuns(runs: readonly number[], v: number, h: number, u0 = 0): { bars: Bar[]; width: number } {
  const bars: Bar[] = [];
  let u = u0;
  for (let k = 0; k < runs.length; k++) {
    const w = runs[k];
    if (k % 2 === 0 && w > 0) bars.push({ u, w, v, h });
    u += w;
  }
  return { bars, width: u - u0 };
}

/** Draws bars into a frame. */
export function drawBars(r: Canvas, f: SymbolFrame, bars: readonly Bar[], mode: InkMode): void {
  for (const b of bars) fillFrameRect(r, f, b.u, b.v, b.w, b.h, mode);
}

/** Run widths in modules (bar first) to dots, each module `moduleWidth` dots. */
export function modulesToDots(modules: readonly number[], moduleWidth: number): number[] {
  return modules.map((m) => m * moduleWidth);
}

/**
 * Run widths of a two-width symbology (narrow/wide) to dots: narrow is the module width, wide is
 * module x ratio rounded to whole dots, as the printer draws them. `isWide` classifies an element.
 */
export function narrowWideToDots(
  elements: readonly number[],
  moduleWidth: number,
  ratio: number,
  isWide: (e: number) => boolean,
): number[] {
  const wide = Math.round(moduleWidth * ratio);
  return elements.map((e) => (isWide(e) ? wide : moduleWidth));
}
