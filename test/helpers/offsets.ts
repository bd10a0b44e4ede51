/** Byte offset of the n-th occurrence of `needle` in `hay` (for expected diagnostic positions). */
export function at(hay: string, needle: string, n = 0): number {
  let i = -1;
  for (let k = 0; k <= n; k++) i = hay.indexOf(needle, i + 1);
  if (i < 0) throw new Error(`${needle} not in ${hay}`);
  return Buffer.byteLength(hay.slice(0, i));
}
