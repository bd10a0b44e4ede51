// Page composition (X-Page-* headers, when the router applies them): labels placed on sheets in a grid of
// columns x rows, row by row from the top left, aligned as asked, each with a dashed, solid or no border.

import { PDFDocument } from 'pdf-lib';
import type { PageComposition, PdfMode } from '../api.js';
import type { DisplayList } from '../display/display-list.js';
import { paint } from '../raster/paint.js';
import { pageContent } from './pdf/painter.js';
import { PdfResources } from './pdf/resources.js';

export interface SheetOptions {
  /** One label in points, and points per dot. */
  labelWidthPt: number;
  labelHeightPt: number;
  dotPt: number;
  mode: PdfMode;
}

/** Border line width in points, and the dash pattern of `dashed`. */
const BORDER_WIDTH = 0.5;
const DASH = '[3 2] 0 d';

export async function encodeSheets(
  labels: AsyncIterable<DisplayList> | Iterable<DisplayList>,
  page: PageComposition,
  opts: SheetOptions,
): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const pdf = new PdfResources(doc);
  const w = opts.labelWidthPt,
    h = opts.labelHeightPt;
  const sheetW = page.widthIn !== undefined ? page.widthIn * 72 : w * page.columns;
  const sheetH = page.heightIn !== undefined ? page.heightIn * 72 : h * page.rows;
  const xs = placements(
    sheetW,
    w,
    page.columns,
    page.align === 'justify' ? 'spread' : page.align === 'right' ? 'end' : page.align === 'center' ? 'center' : 'start',
  );
  const ys = placements(
    sheetH,
    h,
    page.rows,
    page.verticalAlign === 'justify'
      ? 'spread'
      : page.verticalAlign === 'bottom'
        ? 'end'
        : page.verticalAlign === 'center'
          ? 'center'
          : 'start',
  );
  const perSheet = page.columns * page.rows;
  let sheet = doc.addPage([sheetW, sheetH]);
  let content: string[] = [];
  let cell = 0;
  for await (const list of labels) {
    if (cell === perSheet) {
      pdf.finishPage(sheet, content.join('\n'));
      sheet = doc.addPage([sheetW, sheetH]);
      content = [];
      cell = 0;
    }
    const x = xs[cell % page.columns],
      top = ys[Math.floor(cell / page.columns)];
    const y = sheetH - top - h; // PDF y runs up from the bottom of the sheet
    content.push(`q 1 0 0 1 ${x} ${y} cm 0 0 ${w} ${h} re W n`);
    const vector =
      opts.mode === 'vector' ? pageContent(list, { widthPt: w, heightPt: h, dotPt: opts.dotPt }, pdf) : null;
    if (vector !== null) content.push(vector);
    else content.push(`${w} 0 0 ${h} 0 0 cm /${pdf.labelImage(paint(list))} Do`);
    content.push('Q');
    if (page.border !== 'none')
      content.push(`q 0 G ${BORDER_WIDTH} w ${page.border === 'dashed' ? DASH : '[] 0 d'} ${x} ${y} ${w} ${h} re S Q`);
    cell++;
  }
  pdf.finishPage(sheet, content.join('\n'));
  // Written in one go: pdf-lib would otherwise pause for a timer tick every 50 objects (one per glyph shape here).
  return doc.save({ useObjectStreams: false, objectsPerTick: Infinity });
}

/**
 * Offsets of `count` items of size `size` along a sheet side of `length`: packed at the start, end or centre, or
 * `spread` with the spare space in equal gaps before, between and after them. Items too many for the side start at 0.
 */
export function placements(
  length: number,
  size: number,
  count: number,
  how: 'start' | 'end' | 'center' | 'spread',
): number[] {
  const spare = Math.max(0, length - size * count);
  const gap = how === 'spread' ? spare / (count + 1) : 0;
  const first = how === 'end' ? spare : how === 'center' ? spare / 2 : gap;
  return Array.from({ length: count }, (_, i) => first + i * (size + gap));
}
