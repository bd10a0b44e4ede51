// Structured append (Macro PDF417) for ^FM: field data too long for one symbol continues in the next, each
// segment's data codewords followed by a Macro PDF417 control block (ISO/IEC 15438 Annex H) so a scanner
// joins them: 928, the segment index, the file id, and 922 after the last segment. Pad codewords go between
// the data and the control block (readers take nothing after the 922).

const MACRO_BLOCK = 928;
const PAD = 900;
const LAST_SEGMENT = 922;
/** The file id every segment of one series shares (one codeword, 0-899). */
const FILE_ID = [0];
/** Codewords a control block takes at most: 928, two for the index, the file id, 922. */
export const CONTROL_BLOCK_CODEWORDS = 3 + FILE_ID.length + 1;

/** The segment index as numeric compaction of its five digits: a leading 1, then base 900 (two codewords). */
function segmentIndex(index: number): number[] {
  const v = 100_000 + index;
  return [Math.floor(v / 900), v % 900];
}

/** The control block closing segment `index` of a series (`last`: the series ends with it). */
export function controlBlock(index: number, last: boolean): number[] {
  return [MACRO_BLOCK, ...segmentIndex(index), ...FILE_ID, ...(last ? [LAST_SEGMENT] : [])];
}

/** One symbol of a series: its data codewords and its control block. */
export interface MacroSegment {
  data: number[];
  control: number[];
}

/** A segment's codewords filling `room` data codewords: pad codewords between its data and its control block. */
export function paddedSegment(segment: MacroSegment, room: number): number[] {
  const pad = Math.max(0, room - segment.data.length - segment.control.length);
  return [...segment.data, ...new Array<number>(pad).fill(PAD), ...segment.control];
}

/**
 * Cuts `data` into segments, each the longest run whose codewords (from `codewords`) and control block `fit` one
 * symbol (`fits` is asked a count of codewords). Null when a single byte does not fit. At most `maxSegments + 1`
 * segments are made (the caller refuses more than it has origins for).
 */
export function macroSegments(
  data: Uint8Array,
  codewords: (part: Uint8Array) => number[],
  fits: (count: number) => boolean,
  maxSegments: number,
): MacroSegment[] | null {
  const segments: MacroSegment[] = [];
  let start = 0;
  while (start < data.length && segments.length <= maxSegments) {
    const segment = (end: number): MacroSegment => ({
      data: codewords(data.subarray(start, end)),
      control: controlBlock(segments.length, end === data.length),
    });
    const fit = (end: number): boolean => {
      const s = segment(end);
      return fits(s.data.length + s.control.length);
    };
    if (!fit(start + 1)) return null;
    // The longest prefix that fits: codewords grow with the data, so a binary search finds it.
    let lo = start + 1,
      hi = data.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fit(mid)) lo = mid;
      else hi = mid - 1;
    }
    segments.push(segment(lo));
    start = lo;
  }
  return segments;
}
