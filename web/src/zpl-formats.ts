// Where the editor's text holds its label formats (^XA ... ^XZ), and where an added picture or font goes in it.
// Offsets are editor characters (UTF-16), as the caret's.

export interface Format {
  /** Where its ^XA starts. */
  start: number;
  /** Just after its ^XA. */
  bodyStart: number;
  /** Where its ^XZ starts (the end of the text when it has none). */
  closeStart: number;
  /** Just after its ^XZ. */
  end: number;
}

/** Each ^XA with the first ^XZ after it. */
export function formatsOf(text: string): Format[] {
  const formats: Format[] = [];
  const open = /\^XA/gi;
  const close = /\^XZ/gi;
  for (let found = open.exec(text); found; found = open.exec(text)) {
    const start = found.index;
    close.lastIndex = start + 3;
    const closing = close.exec(text);
    const closeStart = closing ? closing.index : text.length;
    const end = closing ? closeStart + 3 : text.length;
    formats.push({ start, bodyStart: start + 3, closeStart, end });
    open.lastIndex = end;
  }
  return formats;
}

/** The format whose body holds `at` (after its ^XA, up to its ^XZ). */
export function formatAt(formats: readonly Format[], at: number): Format | undefined {
  return formats.find((format) => format.bodyStart <= at && at <= format.closeStart);
}

/** Where a field goes, and why there. */
export interface FieldInsertion {
  at: number;
  /**
   * `caret`: at the caret; `after`: the caret was inside a command or an open field, and it goes just after them;
   * `shown`: the caret was outside every label, and it goes before the ^XZ of the label on screen.
   */
  where: 'caret' | 'after' | 'shown';
}

/** Where a whole format goes: before the label at the caret, before the label on screen, or first. */
export interface FormatInsertion {
  at: number;
  where: 'caret' | 'shown' | 'start';
}

const COMMAND_START = /[\^~\r\n]/;

/**
 * Where a field (`^FO...^FS`) goes for a caret at `caret`: at the caret when it is inside a label, moved forward
 * out of a command's parameters and out of a field left open (an ^FO or ^FT not yet closed by its ^FS); else
 * before the ^XZ of `shown` (the label on screen). Undefined when the text has no label at all.
 */
export function fieldInsertion(text: string, caret: number, shown: Format | undefined): FieldInsertion | undefined {
  const formats = formatsOf(text);
  const inside = formatAt(formats, caret);
  if (!inside) {
    const target = shown ?? formats.at(-1);
    return target && { at: target.closeStart, where: 'shown' };
  }
  let at = caret;
  const atBoundary = (i: number): boolean =>
    i <= inside.bodyStart || i >= inside.closeStart || COMMAND_START.test(text[i]!) || text[i - 1] === '\n';
  while (!atBoundary(at)) at++;
  const before = text.slice(inside.bodyStart, at).toUpperCase();
  const lastOrigin = Math.max(before.lastIndexOf('^FO'), before.lastIndexOf('^FT'));
  if (lastOrigin > before.lastIndexOf('^FS')) {
    const close = text.toUpperCase().indexOf('^FS', at);
    at = close === -1 || close >= inside.closeStart ? inside.closeStart : close + 3;
  }
  return { at, where: at === caret ? 'caret' : 'after' };
}

/**
 * Where a format that stores an object (a font's ~DU) goes: before the label holding the caret (counting its ^XA and
 * ^XZ), else before `shown`, else at the start.
 */
export function formatInsertion(text: string, caret: number, shown: Format | undefined): FormatInsertion {
  const holding = formatsOf(text).find((format) => format.start <= caret && caret <= format.end);
  if (holding) return { at: holding.start, where: 'caret' };
  return shown ? { at: shown.start, where: 'shown' } : { at: 0, where: 'start' };
}

/** `snippet` on a line of its own at `at` when it falls at a line's start or end; else as it is. */
export function spliced(text: string, at: number, snippet: string): { text: string; caret: number } {
  const lineStart = at === 0 || text[at - 1] === '\n';
  const lineEnd = at === text.length || text[at] === '\n' || text[at] === '\r';
  const piece = lineStart ? `${snippet}\n` : lineEnd ? `\n${snippet}` : snippet;
  return { text: text.slice(0, at) + piece + text.slice(at), caret: at + piece.length };
}
