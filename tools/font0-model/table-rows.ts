// How the generated font 0 tables write their entries: a few to a line, the line's glyphs in a comment after them.

/** A glyph as a comment shows it: itself when visible, else U+XXXX. */
export const shownGlyph = (cp: number): string =>
  /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(String.fromCodePoint(cp))
    ? String.fromCodePoint(cp)
    : `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/** Entries `cp: value,` (`value` as the table writes it), `perLine` to a line indented six spaces, each line's glyphs in a comment. */
export function tableRows(entries: readonly (readonly [string, string])[], perLine: number): string[] {
  const rows: string[] = [];
  for (let i = 0; i < entries.length; i += perLine) {
    const line = entries.slice(i, i + perLine);
    rows.push(
      `      ${line.map(([cp, value]) => `${cp}: ${value},`).join(' ')} // ${line.map(([cp]) => shownGlyph(Number(cp))).join(' ')}`,
    );
  }
  return rows;
}
