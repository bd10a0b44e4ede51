// Renders a small test label (1x1 inch, 8 dpmm, PNG) and reads its ink back.

import { render } from '../../renderer/render.js';
import type { RenderResult } from '../../renderer/api.js';
import { decodePng } from './png.js';

export async function renderLabel(zpl: string | Uint8Array): Promise<RenderResult> {
  return render(zpl, { dpmm: 8, widthIn: 1, heightIn: 1, format: 'png', index: 0 });
}

/** The label's ink in a window, one string per row: `#` ink, `.` paper. */
export async function inkRows(
  zpl: string | Uint8Array,
  x0: number,
  y0: number,
  w: number,
  h: number,
): Promise<string[]> {
  const img = decodePng((await renderLabel(zpl)).body);
  const rows: string[] = [];
  for (let y = y0; y < y0 + h; y++) {
    let s = '';
    for (let x = x0; x < x0 + w; x++) s += img.gray[y * img.width + x] < 128 ? '#' : '.';
    rows.push(s);
  }
  return rows;
}
