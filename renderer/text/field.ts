// The `text` field drawer: ^FD text in the field's font, as a single line, a ^FB block or a ^TB block.

import type { FieldOf, Orientation } from '../model.js';
import type { DrawEnv, Drawer } from '../display/drawer.js';
import { fieldDataSpan } from '../diagnostics.js';
import type { Canvas } from '../display/canvas.js';
import type { Face } from '../fonts/face.js';
import { resolveFace } from '../fonts/resolve.js';
import { decodeFieldText } from './charset.js';
import { hardLineBytes, layoutBlock, wrapParagraph, type BlockLine } from './block.js';
import { boxFrame, codePoints, drawRun, pointFrame, runWidth, toLabel, type Frame, type RunStyle } from './line.js';

function styleOf(field: FieldOf<'text'>): RunStyle {
  const d = field.direction;
  return {
    mode: field.reverse ? 'xor' : 'black',
    crisp: field.reverse,
    gap: d?.gap ?? 0,
    vertical: d?.mode === 'V',
    reverse: d?.mode === 'R',
  };
}

/** Draws block lines: line i sits in slot min(i, maxLines - 1), so overflow overprints the last line. */
function drawLines(
  r: Canvas,
  face: Face,
  lines: readonly BlockLine[],
  frame: Frame,
  pitch: number,
  maxLines: number,
  style: RunStyle,
): void {
  lines.forEach((line, i) => {
    const v = Math.min(i, maxLines - 1) * pitch + face.baseline;
    if (!line.spaceStretch) {
      drawRun(r, face, line.text, frame, line.indent, v, style);
      return;
    }
    // J: spread the free width over the spaces, word by word.
    const space = runWidth(face, codePoints(' ', face), style.gap);
    let u = line.indent;
    for (const word of line.text.split(' ')) {
      const cps = codePoints(word, face);
      drawRun(r, face, word, frame, Math.round(u), v, style);
      u += runWidth(face, cps, style.gap) + space + line.spaceStretch;
    }
  });
}

/** Characters of a missing-glyph warning named one by one; the rest are counted. */
const MAX_NAMED_MISSING = 8;
/** Spaces, separators and controls print as nothing by design: no glyph is missing for them. */
const BLANK_BY_DESIGN = /[\p{Z}\p{C}]/u;

/** Whether `cp` prints: the face (or a fallback) has a glyph for it, or it is blank by design. */
function printable(face: Face, cp: number): boolean {
  return BLANK_BY_DESIGN.test(String.fromCodePoint(cp)) || !!face.outline(face.mapChar ? face.mapChar(cp) : cp);
}

/** Per face, each Latin-1 character: 0 not asked yet, 1 printable, 2 missing. */
const LATIN1_PRINTABLE = new WeakMap<Face, Uint8Array>();

/** True when every character of `text` is Latin-1 and printable, asked once per face and character (most fields). */
function allLatin1Printable(face: Face, text: string): boolean {
  let known = LATIN1_PRINTABLE.get(face);
  if (!known) LATIN1_PRINTABLE.set(face, (known = new Uint8Array(256)));
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0xff) return false;
    if (known[c] === 0) known[c] = printable(face, c) ? 1 : 2;
    if (known[c] === 2) return false;
  }
  return true;
}

/** Warns, naming them, about characters of the field that the face (and its fallbacks) has no glyph for. */
function warnMissingGlyphs(field: FieldOf<'text'>, env: DrawEnv, face: Face, text: string): void {
  // A Set, a regular expression and a glyph lookup per character cost a label 1.4 % before the Latin-1 table.
  if (!env.log || allLatin1Printable(face, text)) return;
  const missing: string[] = [];
  for (const ch of new Set(text)) {
    const cp = ch.codePointAt(0)!;
    if (printable(face, cp)) continue;
    missing.push(`${ch} (U+${cp.toString(16).toUpperCase().padStart(4, '0')})`);
  }
  if (!missing.length) return;
  const named =
    missing.slice(0, MAX_NAMED_MISSING).join(', ') +
    (missing.length > MAX_NAMED_MISSING ? ` and ${missing.length - MAX_NAMED_MISSING} more` : '');
  env.log.add({
    ...fieldDataSpan(field),
    command: '^FD',
    param: 1,
    feature: 'missing-glyph',
    message: `No font has a glyph for ${named}; ${missing.length > 1 ? 'they print' : 'it prints'} as blank space`,
  });
}

export const drawTextField: Drawer<'text'> = (field, env, canvas) => {
  env.state.textFont(field.font);
  if (!field.data?.length) return;
  const data = field.data;
  const text = decodeFieldText(data, field.charset, field.remap);
  const face = resolveFace(field.font, env.objects);
  warnMissingGlyphs(field, env, face, text);
  const style = styleOf(field);
  const o = field.font.orientation;

  if (field.block) {
    const b = field.block;
    const width = b.width > 0 ? b.width : Number.MAX_SAFE_INTEGER / 4;
    const paragraphs = hardLineBytes(data).map((p) => decodeFieldText(p, field.charset, field.remap));
    const lines = layoutBlock(face, paragraphs, { width, justify: b.justify, hangingIndent: b.hangingIndent });
    const maxLines = Math.max(1, b.maxLines);
    if (lines.length > maxLines) {
      env.log?.add({
        byteIndex: field.at,
        byteSize: 0,
        command: '^FB',
        param: 2,
        message: `Field data overflows the ^FB block (${lines.length} lines, max ${maxLines})`,
      });
    }
    const pitch = face.height + b.lineSpacing;
    // ^FT puts the baseline of the block's last possible line (max lines) on the origin.
    const frame =
      field.origin === 'FT'
        ? pointFrame(field.x, field.y, (maxLines - 1) * pitch + face.baseline, o)
        : blockFrame(
            field.x,
            field.y,
            b.width > 0
              ? b.width
              : lines.reduce((m, l) => Math.max(m, l.indent + runWidth(face, codePoints(l.text, face))), 0),
            maxLines * pitch - b.lineSpacing,
            o,
            b.width > 0,
          );
    drawLines(canvas, face, lines, frame, pitch, maxLines, style);
    return;
  }

  if (field.textBlock) {
    const tb = field.textBlock;
    const to = tb.orientation ?? o;
    const lines = wrapParagraph(face, text, tb.width > 0 ? tb.width : Number.MAX_SAFE_INTEGER / 4).map((t) => ({
      text: t,
      indent: 0,
      spaceStretch: 0,
    }));
    const pitch = face.textBlockPitch ?? face.height;
    const maxLines = Math.max(1, Math.floor((tb.height || pitch) / pitch));
    const shown = lines.slice(0, maxLines);
    const frame =
      field.origin === 'FT'
        ? boxFrameFromBottom(field.x, field.y, tb.width, tb.height, to)
        : boxFrame(field.x, field.y, tb.width, tb.height, to);
    drawLines(canvas, face, shown, frame, pitch, maxLines, style);
    return;
  }

  const cps = codePoints(text, face);
  const width = style.vertical
    ? Math.round(cps.reduce((m, c) => Math.max(m, face.advance(c)), 0))
    : runWidth(face, cps, style.gap);
  const height = style.vertical ? cps.length * (face.height + style.gap) : face.height;
  const shift = field.justification === 1 ? -width : 0;
  const start = env.state.startOf(field);
  const frame =
    field.origin === 'FT'
      ? pointFrame(start.x, start.y, face.baseline, o)
      : boxFrame(field.x, field.y, width, height, o);
  const [ex, ey] = toLabel(frame, shift + width, face.baseline);
  env.state.endAt(Math.round(ex), Math.round(ey));
  drawRun(canvas, face, text, frame, shift, face.baseline, style);
};

/**
 * The frame of a ^FB block `w` x `h` dots at (x, y). The legacy renderer turns an inverted block of a given width about
 * its full width, not one dot short as it turns lines (fG_fb_rotI: every glyph stood a dot left, strict 0.838 -> 1;
 * ^TB keeps the short turn, fG_tb_rotI).
 */
function blockFrame(x: number, y: number, w: number, h: number, o: Orientation, widthGiven: boolean): Frame {
  return boxFrame(widthGiven && o === 'I' ? x + 1 : x, y, w, h, o);
}

/** ^TB with ^FT: the block's bottom-left corner is the origin. */
function boxFrameFromBottom(x: number, y: number, _w: number, h: number, o: Orientation): Frame {
  return pointFrame(x, y, h, o);
}
