// bwip-js used as an encoder only: it turns data into bar/space widths in modules; we draw every bar.

import bwipjs from 'bwip-js';

export type BwipOptions = Record<string, string | number | boolean>;

/** Element widths (bar first) of the first row bwip-js lays out, or an error message. */
export function bwipElements(bcid: string, text: string, options: BwipOptions = {}): number[] | { error: string } {
  try {
    const rows = bwipjs.raw({ bcid, text, ...options } as Parameters<typeof bwipjs.raw>[0]) as Array<{ sbs?: ArrayLike<number> }>;
    const sbs = rows[0]?.sbs;
    if (!sbs) return { error: 'no bars' };
    return Array.from(sbs);
  } catch (e) {
    return { error: String((e as Error).message ?? e).replace(/^bwipp\.\w+#?\d*:\s*/, '') };
  }
}

/** Every row bwip-js lays out (stacked symbologies), each as element widths. */
export function bwipRows(bcid: string, text: string, options: BwipOptions = {}): { rows: number[][]; heights: number[] } | { error: string } {
  try {
    const rows = bwipjs.raw({ bcid, text, ...options } as Parameters<typeof bwipjs.raw>[0]) as unknown as Array<{ sbs?: ArrayLike<number>; bhs?: ArrayLike<number>; pixs?: ArrayLike<number>; pixx?: number; pixy?: number }>;
    return { rows: rows.map((r) => Array.from(r.sbs ?? [])), heights: rows.map((r) => Array.from(r.bhs ?? [1])[0] ?? 1) };
  } catch (e) {
    return { error: String((e as Error).message ?? e) };
  }
}
