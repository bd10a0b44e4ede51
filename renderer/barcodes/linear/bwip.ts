// bwip-js used as an encoder only: it turns data into bar/space widths (or module rows); we draw every bar.

import bwipjs from 'bwip-js';
import { cachedEncoding } from '../common/encoding-cache.js';

export type BwipOptions = Record<string, string | number | boolean>;

/** One row as bwip-js lays it out: `sbs` element widths (bar first), `bhs`/`bbs` bar heights and offsets;
 * stacked symbologies come as a module matrix `pixs` of `pixx` columns instead. */
export interface BwipRow {
  sbs?: number[];
  bhs?: number[];
  bbs?: number[];
  pixs?: number[];
  pixx?: number;
}

/** Encodes with bwip-js (kept by content); an error comes back as a message fit for a diagnostic, never thrown. */
export function bwipEncode(bcid: string, text: string, options: BwipOptions = {}): BwipRow[] | { error: string } {
  return cachedEncoding(
    bcid,
    `${JSON.stringify(options)}\u0000${text}`,
    () => encodeRows(bcid, text, options),
    rowsBytes,
  );
}

/** Roughly: eight bytes a number of every row's arrays. */
function rowsBytes(rows: BwipRow[] | { error: string }): number {
  if ('error' in rows) return rows.error.length * 2;
  let n = 0;
  for (const r of rows) n += (r.sbs?.length ?? 0) + (r.bhs?.length ?? 0) + (r.bbs?.length ?? 0) + (r.pixs?.length ?? 0);
  return n * 8 + rows.length * 64;
}

function encodeRows(bcid: string, text: string, options: BwipOptions): BwipRow[] | { error: string } {
  try {
    const rows = bwipjs.raw({ bcid, text, ...options } as Parameters<typeof bwipjs.raw>[0]) as unknown as Array<
      Record<string, unknown>
    >;
    const list = (v: unknown) =>
      v && typeof v === 'object' && 'length' in v ? Array.from(v as ArrayLike<number>) : undefined;
    return rows.map((r) => ({
      sbs: list(r.sbs),
      bhs: list(r.bhs),
      bbs: list(r.bbs),
      pixs: list(r.pixs),
      pixx: r.pixx as number | undefined,
    }));
  } catch (e) {
    return { error: String((e as Error).message ?? e).replace(/^bwipp\.\w+#?\d*:\s*/, '') };
  }
}

/** Element widths (bar first) of the first row, or an error message. */
export function bwipElements(bcid: string, text: string, options: BwipOptions = {}): number[] | { error: string } {
  const rows = bwipEncode(bcid, text, options);
  if ('error' in rows) return rows;
  return rows[0]?.sbs ?? { error: 'no bars' };
}
