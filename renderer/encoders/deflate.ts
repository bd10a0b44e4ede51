// A zlib stream (RFC 1950/1951) built from runs: the caller says what the bytes are (a run of one byte value, or a
// copy of the bytes `distance` back) while it filters rows, and this counts the symbols, keeps the Adler-32, and
// at the end writes one block with a dynamic Huffman table made from those counts. No match search: raster rows
// are runs (mostly of zeros after the Up filter) and repeated rows, which the caller knows without looking.

import { canonicalCodes, codeLengths } from './huffman.js';

const MAX_MATCH = 258;
const MIN_MATCH = 3;
const END_OF_BLOCK = 256;
const LIT_CODES = 286;
const DIST_CODES = 30;
const ADLER_MOD = 65521;
/**
 * The sums are reduced once a passes 2^24 or b 2^44. A run of n <= 2^16 then adds under 2^24 to a and under 2^41 to
 * b, so both stay exact integers in a double; longer runs go in pieces.
 */
const ADLER_A_LIMIT = 2 ** 24;
const ADLER_B_LIMIT = 2 ** 44;
const ADLER_MAX_RUN = 2 ** 16;
/** A copy of the byte before (a run) as a token: distance 1 << 9 | length; tokens below FAST_TOKENS are literals or runs. */
const RUN_TOKEN = 1 << 9;
const FAST_TOKENS = RUN_TOKEN + MAX_MATCH + 1;
/** Typed arrays use the machine's byte order; the stream's bytes are the 16-bit units' little-endian bytes. */
const BIG_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 0;
/** The largest distance deflate can point back. */
export const MAX_DISTANCE = 32768;

// Length symbol and its extra bits for each match length 3..258 (RFC 1951 3.2.5).
const LENGTH_SYMBOL = new Uint16Array(MAX_MATCH + 1);
const LENGTH_EXTRA_BITS = new Uint8Array(MAX_MATCH + 1);
const LENGTH_EXTRA = new Uint8Array(MAX_MATCH + 1);
const SYMBOL_EXTRA_BITS = new Uint8Array(LIT_CODES);
{
  const base = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
  const extra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
  for (let code = 0; code < base.length; code++) {
    SYMBOL_EXTRA_BITS[257 + code] = extra[code];
    const end = code === base.length - 1 ? MAX_MATCH : base[code + 1] - 1;
    for (let len = base[code]; len <= end; len++) {
      LENGTH_SYMBOL[len] = 257 + code;
      LENGTH_EXTRA_BITS[len] = extra[code];
      LENGTH_EXTRA[len] = len - base[code];
    }
  }
  LENGTH_SYMBOL[MAX_MATCH] = 285; // 258 has its own code (227 + 31 would also fit code 284)
  LENGTH_EXTRA_BITS[MAX_MATCH] = 0;
  LENGTH_EXTRA[MAX_MATCH] = 0;
}

const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
  4097, 6145, 8193, 12289, 16385, 24577];
const DIST_EXTRA_BITS = Uint8Array.from(DIST_BASE, (_, c) => (c < 4 ? 0 : (c >> 1) - 1));

function distanceCode(distance: number): number {
  let c = DIST_CODES - 1;
  while (DIST_BASE[c] > distance) c--;
  return c;
}

/** Code length alphabet order of the block header (RFC 1951 3.2.7). */
const CL_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

/**
 * One zlib stream at a time, its buffers kept for the next (a label's encoding is synchronous). Tokens: a literal
 * byte is its value (< 256); a match is `distance << 9 | length`.
 */
export class RunDeflater {
  #tokens = new Uint32Array(1 << 14);
  #count = 0;
  readonly #litFreq = new Uint32Array(LIT_CODES);
  readonly #distFreq = new Uint32Array(DIST_CODES);
  #a = 1;
  #b = 0;
  // The table and the header, built by `prepare`.
  readonly #litLen = new Uint8Array(LIT_CODES);
  readonly #litCode = new Uint16Array(LIT_CODES);
  readonly #distLen = new Uint8Array(DIST_CODES);
  readonly #distCode = new Uint16Array(DIST_CODES);
  readonly #clFreq = new Uint32Array(19);
  readonly #clLen = new Uint8Array(19);
  readonly #clCode = new Uint16Array(19);
  /** The code-length symbols of the header, each `symbol | extra << 5`. */
  readonly #header = new Uint32Array(LIT_CODES + DIST_CODES);
  readonly #allLengths = new Uint8Array(LIT_CODES + DIST_CODES);
  // The writer's tables (see #writeTokens).
  readonly #fastTable = new Uint32Array(FAST_TOKENS);
  readonly #matchTable = new Uint32Array(MAX_MATCH + 1);
  /** The block's bits, written 16 at a time (then copied into the PNG). */
  #units = new Uint16Array(1 << 14);
  #headerCount = 0;
  #hlit = 0;
  #hdist = 0;
  #hclen = 0;
  #bits = 0;

  /** Starts a new stream. */
  reset(): void {
    this.#count = 0;
    this.#litFreq.fill(0);
    this.#distFreq.fill(0);
    this.#a = 1;
    this.#b = 0;
  }

  /**
   * Room for `bytes` more bytes of input (a row), whatever tokens they become; call before adding them. A token
   * buffer grown past `keepTokens` by a huge noisy label is let go at the next `reset` after it.
   */
  reserve(bytes: number): void {
    const need = this.#count + bytes + 2;
    if (need <= this.#tokens.length) return;
    const grown = new Uint32Array(Math.max(need, this.#tokens.length * 2));
    grown.set(this.#tokens.subarray(0, this.#count));
    this.#tokens = grown;
  }

  /** Lets go of a token buffer (or output buffer) above `keepTokens` entries (call when the stream is written). */
  trim(keepTokens: number): void {
    if (this.#tokens.length > keepTokens) this.#tokens = new Uint32Array(1 << 14);
    if (this.#units.length > keepTokens) this.#units = new Uint16Array(1 << 14);
  }

  /** `n` (>= 1) bytes of value `v`: one literal, then copies of the byte before (short tails as literals). */
  run(v: number, n: number): void {
    if (n === 1) { this.literal(v); return; }
    this.#tokens[this.#count++] = v;
    this.#litFreq[v]++;
    if (n > MIN_MATCH) this.copy(1, n - 1);
    else for (let left = n - 1; left > 0; left--) { this.#tokens[this.#count++] = v; this.#litFreq[v]++; }
    this.sum(v, n);
  }

  /** One byte `v`: most runs in anti-aliased rows are single bytes, so this skips the run arithmetic. */
  literal(v: number): void {
    this.#tokens[this.#count++] = v;
    this.#litFreq[v]++;
    const a = this.#a + v;
    this.#a = a;
    this.#b += a;
    if (a >= ADLER_A_LIMIT || this.#b >= ADLER_B_LIMIT) this.#reduce();
  }

  /** `n` (>= 3) bytes copied from `distance` back; the caller adds them to the checksum with `sum`. */
  copy(distance: number, n: number): void {
    const t = this.#tokens, lit = this.#litFreq;
    let c = this.#count;
    const dc = distance === 1 ? 0 : distanceCode(distance);
    while (n > 0) {
      // Never leave fewer than 3 bytes for the last copy.
      const len = n > MAX_MATCH ? (n - MAX_MATCH < MIN_MATCH ? n - MIN_MATCH : MAX_MATCH) : n;
      t[c++] = (distance << 9) | len;
      lit[LENGTH_SYMBOL[len]]++;
      this.#distFreq[dc]++;
      n -= len;
    }
    this.#count = c;
  }

  /**
   * Adds `n` bytes of value `v` to the Adler-32 in closed form: b gains n a + v n (n + 1) / 2, a gains n v; reduced
   * only now and then (a division per run would cost more than the rest).
   */
  sum(v: number, n: number): void {
    while (n > ADLER_MAX_RUN) { this.sum(v, ADLER_MAX_RUN); n -= ADLER_MAX_RUN; }
    const a = this.#a;
    this.#b += n * a + (v === 0 ? 0 : v * ((n * (n + 1)) / 2));
    this.#a = a + n * v;
    if (this.#a >= ADLER_A_LIMIT || this.#b >= ADLER_B_LIMIT) this.#reduce();
  }

  #reduce(): void {
    this.#a %= ADLER_MOD;
    this.#b %= ADLER_MOD;
  }

  /** Builds the Huffman table from the counts; returns the size in bytes of the zlib stream `write` will write. */
  prepare(): number {
    this.#litFreq[END_OF_BLOCK] = 1;
    codeLengths(this.#litFreq, LIT_CODES, 15, this.#litLen);
    codeLengths(this.#distFreq, DIST_CODES, 15, this.#distLen);
    canonicalCodes(this.#litLen, LIT_CODES, this.#litCode);
    canonicalCodes(this.#distLen, DIST_CODES, this.#distCode);
    let hlit = LIT_CODES;
    while (hlit > 257 && this.#litLen[hlit - 1] === 0) hlit--;
    let hdist = DIST_CODES;
    while (hdist > 1 && this.#distLen[hdist - 1] === 0) hdist--;
    this.#hlit = hlit;
    this.#hdist = hdist;
    this.#encodeLengths();
    codeLengths(this.#clFreq, 19, 7, this.#clLen);
    canonicalCodes(this.#clLen, 19, this.#clCode);
    let hclen = 19;
    while (hclen > 4 && this.#clLen[CL_ORDER[hclen - 1]] === 0) hclen--;
    this.#hclen = hclen;
    let bits = 3 + 5 + 5 + 4 + 3 * hclen;
    for (let i = 0; i < this.#headerCount; i++) {
      const sym = this.#header[i] & 31;
      bits += this.#clLen[sym] + (sym === 16 ? 2 : sym === 17 ? 3 : sym === 18 ? 7 : 0);
    }
    for (let s = 0; s < LIT_CODES; s++) bits += this.#litFreq[s] * (this.#litLen[s] + SYMBOL_EXTRA_BITS[s]);
    for (let d = 0; d < DIST_CODES; d++) bits += this.#distFreq[d] * (this.#distLen[d] + DIST_EXTRA_BITS[d]);
    this.#bits = bits;
    return 2 + ((bits + 7) >> 3) + 4;
  }

  /** Run-length codes (16, 17, 18) for the literal/length then distance code lengths, counted into #clFreq. */
  #encodeLengths(): void {
    const size = this.#hlit + this.#hdist;
    const all = this.#allLengths;
    all.set(this.#litLen.subarray(0, this.#hlit));
    all.set(this.#distLen.subarray(0, this.#hdist), this.#hlit);
    this.#clFreq.fill(0);
    let h = 0;
    const put = (sym: number, extra = 0): void => { this.#header[h++] = sym | (extra << 5); this.#clFreq[sym]++; };
    for (let i = 0; i < size;) {
      const v = all[i];
      let run = 1;
      while (i + run < size && all[i + run] === v) run++;
      i += run;
      if (v === 0) {
        while (run >= 11) { const k = Math.min(run, 138); put(18, k - 11); run -= k; }
        if (run >= 3) { put(17, run - 3); run = 0; }
      } else {
        put(v);
        run--;
        while (run >= 3) { const k = Math.min(run, 6); put(16, k - 3); run -= k; }
      }
      for (; run > 0; run--) put(v);
    }
    this.#headerCount = h;
  }

  /** Writes the zlib stream `prepare` measured at `out[at]`; returns where it ends. */
  write(out: Uint8Array, at: number): number {
    out[at++] = 0x78; // deflate, 32 KiB window
    out[at++] = 0x01; // no dictionary, fastest; (0x7801 % 31) === 0
    const units = (this.#bits >> 4) + 2;
    if (this.#units.length < units) this.#units = new Uint16Array(Math.max(units, this.#units.length * 2));
    const w = new BitWriter(this.#units);
    w.put(1, 1); // final block
    w.put(2, 2); // dynamic Huffman
    w.put(this.#hlit - 257, 5);
    w.put(this.#hdist - 1, 5);
    w.put(this.#hclen - 4, 4);
    for (let i = 0; i < this.#hclen; i++) w.put(this.#clLen[CL_ORDER[i]], 3);
    for (let i = 0; i < this.#headerCount; i++) {
      const sym = this.#header[i] & 31, extra = this.#header[i] >>> 5;
      w.put(this.#clCode[sym], this.#clLen[sym]);
      if (sym === 16) w.put(extra, 2); else if (sym === 17) w.put(extra, 3); else if (sym === 18) w.put(extra, 7);
    }
    this.#writeTokens(w);
    w.put(this.#litCode[END_OF_BLOCK], this.#litLen[END_OF_BLOCK]);
    const bytes = w.finish();
    const written = new Uint8Array(this.#units.buffer, 0, (bytes + 1) & ~1);
    if (BIG_ENDIAN) Buffer.from(written.buffer, 0, written.length).swap16();
    out.set(written.subarray(0, bytes), at);
    let pos = at + bytes;
    if (BIG_ENDIAN) Buffer.from(written.buffer, 0, written.length).swap16(); // (the buffer is reused)
    this.#reduce();
    const adler = ((this.#b << 16) | this.#a) >>> 0;
    out[pos++] = adler >>> 24;
    out[pos++] = (adler >>> 16) & 255;
    out[pos++] = (adler >>> 8) & 255;
    out[pos++] = adler & 255;
    return pos;
  }

  /**
   * The hot loop: the writer's state in locals. Literals and runs (matches at distance 1) are one table of entries
   * (code | length << 16) indexed by the token itself, so the common case has no branch on the token's kind; a
   * zero entry sends the token the long way (other distances, codes over 16 bits). The bits gathered are stored
   * as a 16-bit unit after every token and the unit kept once full, without a branch: whether a token fills a unit
   * is a coin toss the processor would mispredict.
   */
  #writeTokens(w: BitWriter): void {
    const fast = this.#fastTable, match = this.#matchTable;
    for (let s = 0; s < 256; s++) fast[s] = this.#litCode[s] | (this.#litLen[s] << 16);
    const d1 = this.#distCode[0] | (this.#distLen[0] << 16);
    for (let len = MIN_MATCH; len <= MAX_MATCH; len++) {
      const sym = LENGTH_SYMBOL[len], symLen = this.#litLen[sym], extra = LENGTH_EXTRA_BITS[len];
      const bits = this.#litCode[sym] | (LENGTH_EXTRA[len] << symLen), count = symLen + extra;
      match[len] = bits | (count << 20) ; // at most 20 bits of code and extra
      const withDistance = count + (d1 >>> 16);
      fast[RUN_TOKEN + len] = withDistance <= 16 ? (bits | ((d1 & 0xffff) << count)) | (withDistance << 16) : 0;
    }
    const out = w.out, t = this.#tokens, distCode = this.#distCode, distLen = this.#distLen;
    // n < 16 between tokens, and a fast entry adds at most 16 bits: acc stays below 2^31.
    let pos = w.pos, acc = w.acc, n = w.n;
    for (let i = 0, end = this.#count; i < end; i++) {
      const tok = t[i];
      const e = tok < FAST_TOKENS ? fast[tok] : 0;
      if (e !== 0) {
        acc |= (e & 0xffff) << n;
        n += e >>> 16;
        out[pos] = acc;
        const full = n >>> 4;
        pos += full;
        acc >>>= full << 4;
        n -= full << 4;
        continue;
      }
      const len = tok & 511, distance = tok >>> 9;
      // Length code and extra bits (up to 20), then the distance code and its extra bits, 16 bits at a time.
      const m = match[len], count = m >>> 20;
      if (count > 16) {
        acc |= (m & 0xffff) << n;
        n += 16;
        out[pos++] = acc; acc >>>= 16; n -= 16;
        acc |= ((m >>> 16) & 0xf) << n;
        n += count - 16;
      } else {
        acc |= (m & 0xfffff) << n;
        n += count;
      }
      if (n >= 16) { out[pos++] = acc; acc >>>= 16; n -= 16; }
      const dc = distance === 1 ? 0 : distanceCode(distance);
      acc |= distCode[dc] << n;
      n += distLen[dc];
      if (DIST_EXTRA_BITS[dc] > 0) {
        if (n >= 16) { out[pos++] = acc; acc >>>= 16; n -= 16; }
        acc |= (distance - DIST_BASE[dc]) << n;
        n += DIST_EXTRA_BITS[dc];
      }
      if (n >= 16) { out[pos++] = acc; acc >>>= 16; n -= 16; }
    }
    w.pos = pos;
    w.acc = acc;
    w.n = n;
  }

  /** Bits of the block `prepare` measured (for checks). */
  get bits(): number { return this.#bits; }
}

/** Bits into 16-bit units, least significant first (little-endian units are the deflate stream's bytes). */
class BitWriter {
  acc = 0;
  n = 0;
  pos = 0;
  constructor(readonly out: Uint16Array) {}

  /** Adds `len` (<= 16) bits of `value`. */
  put(value: number, len: number): void {
    this.acc |= value << this.n;
    this.n += len;
    if (this.n >= 16) { this.out[this.pos++] = this.acc; this.acc >>>= 16; this.n -= 16; }
  }

  /** Stores the last bits; returns the stream's length in bytes (padded to a whole byte). */
  finish(): number {
    if (this.n === 0) return 2 * this.pos;
    this.out[this.pos] = this.acc;
    return 2 * this.pos + (this.n > 8 ? 2 : 1);
  }
}
