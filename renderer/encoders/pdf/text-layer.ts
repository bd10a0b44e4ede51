// The invisible text over every glyph run (render mode 3), so that search and copy find the field data.

import { turn, type GlyphRunElement } from '../../display/display-list.js';
import { n } from './operators.js';
import type { PdfResources } from './resources.js';

/**
 * The run's text, invisible (render mode 3), stretched over the run's extent along its writing direction. Helvetica
 * shows WinAnsi only: characters beyond it are shown as `?` and the whole text is given as the span's ActualText,
 * which text extraction and search read instead (pdftotext does).
 */
export function invisibleText(out: string[], run: GlyphRunElement, pdf: PdfResources): void {
  if (!run.text.trim() || !run.glyphs.length) return;
  const { shown, whole } = winAnsi(run.text);
  const across = run.orientation === 'N' || run.orientation === 'I' ? run.box.height : run.box.width;
  const along = run.orientation === 'N' || run.orientation === 'I' ? run.box.width : run.box.height;
  const unit = shown.length * AVERAGE_ADVANCE;
  if (!(unit > 0) || !(along > 0)) return;
  const a = along / unit,
    size = Math.max(1, across);
  // Text space x along the writing direction, y up the glyphs; the page's y runs down.
  const [ux, uy] = turn(run.orientation, a, 0);
  const [vx, vy] = turn(run.orientation, 0, -size);
  const first = run.glyphs[0];
  const text = `BT 3 Tr /${pdf.textFont()} 1 Tf ${n(ux)} ${n(uy)} ${n(vx)} ${n(vy)} ${n(first.x)} ${n(first.y)} Tm <${Buffer.from(shown, 'latin1').toString('hex')}> Tj ET`;
  out.push(whole ? text : `/Span <</ActualText <${utf16Hex(run.text)}>>> BDC ${text} EMC`);
}

/** Helvetica's mean advance in text space units (about half the size): stretching uses it, nothing is drawn. */
const AVERAGE_ADVANCE = 0.55;

/**
 * The text in WinAnsi bytes (as a Latin-1 string): Latin-1 outside 0x80-0x9F, characters beyond Latin-1 as `?`,
 * control characters left out; `whole` when nothing was replaced.
 */
function winAnsi(text: string): { shown: string; whole: boolean } {
  let shown = '';
  let whole = true;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if ((c >= 0x20 && c < 0x7f) || (c >= 0xa0 && c <= 0xff)) shown += ch;
    else if (c > 0xff) {
      shown += '?';
      whole = false;
    }
  }
  return { shown, whole };
}

/** A PDF text string in UTF-16BE with its byte order mark, as hex. */
function utf16Hex(text: string): string {
  const bytes = Buffer.from(text, 'utf16le').swap16();
  return `FEFF${bytes.toString('hex').toUpperCase()}`;
}
