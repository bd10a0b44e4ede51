// Length-limited Huffman codes for deflate (RFC 1951 3.2.2): code lengths from symbol counts, then the
// canonical codes, bit-reversed because deflate sends Huffman codes most significant bit first in an LSB-first stream.

/** Symbol indices sorted by count (ascending, ties by index), and the counts themselves; reused, never shrunk. */
let order = new Int32Array(320);
let work = new Float64Array(320);
let keys = new Float64Array(320);
/** Alphabets have fewer symbols than this (deflate's largest has 286). */
const SYMBOL_SLOTS = 512;

/**
 * Writes into `lengths[0..n)` code lengths of at most `limit` bits for `freq[0..n)` (0 for unused symbols). At least
 * two symbols always get a code, so every tree is complete: zlib's inflate and others reject incomplete trees.
 */
export function codeLengths(freq: Uint32Array, n: number, limit: number, lengths: Uint8Array): void {
  if (n > SYMBOL_SLOTS) throw new RangeError(`codeLengths: ${n} symbols`);
  if (order.length < n) {
    order = new Int32Array(n);
    work = new Float64Array(n);
    keys = new Float64Array(n);
  }
  lengths.fill(0, 0, n);
  let used = 0;
  for (let s = 0; s < n; s++) if (freq[s] > 0) order[used++] = s;
  // One or no symbol used: a complete two-code tree over the first two symbols (or the used one and another).
  if (used < 2) {
    const a = used === 1 ? order[0] : 0;
    lengths[a] = 1;
    lengths[a === 0 ? 1 : 0] = 1;
    return;
  }
  // Sorted by count, ties by index, as one number each (count * 512 + index, exact below 2^53): a numeric typed-array
  // sort, with no comparator called back.
  for (let i = 0; i < used; i++) keys[i] = freq[order[i]] * SYMBOL_SLOTS + order[i];
  keys.subarray(0, used).sort();
  const sorted = order;
  for (let i = 0; i < used; i++) {
    sorted[i] = keys[i] % SYMBOL_SLOTS;
    work[i] = (keys[i] - sorted[i]) / SYMBOL_SLOTS;
  }
  minimumRedundancy(work, used);
  // work[i] is now the depth of sorted[i], non-increasing with i (the rarest symbols deepest).
  if (work[0] > limit) limitDepths(work, used, limit);
  for (let i = 0; i < used; i++) lengths[sorted[i]] = work[i];
}

/**
 * Huffman code lengths in place over counts sorted ascending (Moffat and Katajainen's in-place method): merge the two
 * lightest of leaves and internal nodes, then turn parent pointers into depths, then depths of internal nodes into
 * the depths of leaves.
 */
function minimumRedundancy(a: Float64Array, n: number): void {
  let root = 0,
    leaf = 0;
  for (let next = 0; next < n - 1; next++) {
    // First child: the lighter of the next leaf and the next internal node.
    if (leaf >= n || (root < next && a[root] < a[leaf])) {
      a[next] = a[root];
      a[root++] = next;
    } else a[next] = a[leaf++];
    // Second child, added to the same internal node.
    if (leaf >= n || (root < next && a[root] < a[leaf])) {
      a[next] += a[root];
      a[root++] = next;
    } else a[next] += a[leaf++];
  }
  a[n - 2] = 0;
  for (let next = n - 3; next >= 0; next--) a[next] = a[a[next]] + 1;
  let available = 1,
    usedHere = 0,
    depth = 0,
    internal = n - 2,
    next = n - 1;
  while (available > 0) {
    while (internal >= 0 && a[internal] === depth) {
      usedHere++;
      internal--;
    }
    while (available > usedHere) {
      a[next--] = depth;
      available--;
    }
    available = 2 * usedHere;
    depth++;
    usedHere = 0;
  }
}

const count = new Int32Array(64);

/**
 * Caps depths at `limit` and repairs the Kraft sum: clamp, then while the tree is over-full, drop one leaf from the
 * deepest level and split a leaf from the deepest shallower level into two (one fewer unit each time). Depths are
 * then handed out again, shortest to the most frequent symbols (the end of `depths`).
 */
function limitDepths(depths: Float64Array, n: number, limit: number): void {
  count.fill(0);
  for (let i = 0; i < n; i++) count[Math.min(depths[i], limit)]++;
  let kraft = 0;
  for (let d = 1; d <= limit; d++) kraft += count[d] * 2 ** (limit - d);
  const full = 2 ** limit;
  while (kraft > full) {
    count[limit]--;
    for (let d = limit - 1; d > 0; d--) {
      if (count[d] > 0) {
        count[d]--;
        count[d + 1] += 2;
        break;
      }
    }
    kraft--;
  }
  let i = 0;
  for (let d = limit; d > 0; d--) for (let k = 0; k < count[d]; k++) depths[i++] = d;
}

const nextCode = new Int32Array(17);

/** Canonical codes for `lengths[0..n)` (RFC 1951 3.2.2), each bit-reversed for an LSB-first writer. */
export function canonicalCodes(lengths: Uint8Array, n: number, codes: Uint16Array): void {
  count.fill(0);
  for (let s = 0; s < n; s++) count[lengths[s]]++;
  count[0] = 0;
  let code = 0;
  for (let bits = 1; bits <= 16; bits++) {
    code = (code + count[bits - 1]) << 1;
    nextCode[bits] = code;
  }
  for (let s = 0; s < n; s++) {
    const len = lengths[s];
    codes[s] = len === 0 ? 0 : reverse(nextCode[len]++, len);
  }
}

function reverse(code: number, len: number): number {
  let r = 0;
  for (let i = 0; i < len; i++) {
    r = (r << 1) | (code & 1);
    code >>= 1;
  }
  return r;
}
