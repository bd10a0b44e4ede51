// A zlib stream (RFC 1950/1951) built from runs: the caller says what the bytes are (a run of one byte value, or a
// copy of the bytes `distance` back) while it filters rows, and this counts the symbols, keeps the Adler-32, and
// at the end writes one block with a dynamic Huffman table made from those counts. No match search: raster rows
// are runs (mostly of zeros after the Up filter) and repeated rows, which the caller knows without looking.

import { claimBytes, UNMETERED, type DecodeMeter } from '../decode/meter.js';
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
const HIGH_BITS = 0x80808080 | 0;
const LOW_BITS = 0x7f7f7f7f;

/** Bytewise (a - b) mod 256 of two words, without borrows crossing bytes. */
const bytewiseDifference = (a: number, b: number): number =>
  (((a | HIGH_BITS) - (b & LOW_BITS)) | 0) ^ ((a ^ ~b) & HIGH_BITS);

/** A word's four bytes in the other order (rows read right to left). */
const swapBytes = (w: number): number => ((w & 0xff) << 24) | ((w & 0xff00) << 8) | ((w >>> 8) & 0xff00) | (w >>> 24);

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
  const base = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
  ];
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

const DIST_BASE = [
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145,
  8193, 12289, 16385, 24577,
];
const DIST_EXTRA_BITS = Uint8Array.from(DIST_BASE, (_, c) => (c < 4 ? 0 : (c >> 1) - 1));

/** The distance code of each distance 1..32768: one load per copy token, where a search took ten steps for a row. */
const DISTANCE_CODE = new Uint8Array(MAX_DISTANCE + 1);
for (let c = 0, d = 1; d <= MAX_DISTANCE; d++) {
  if (c + 1 < DIST_CODES && DIST_BASE[c + 1] === d) c++;
  DISTANCE_CODE[d] = c;
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
  /** The stream's meter, and the token and output buffers it claimed there (0: the thread's own, kept from before). */
  #meter: DecodeMeter = UNMETERED;
  #tokenBytes = 0;
  #unitBytes = 0;

  /**
   * Starts a new stream. Token and output buffers grown for it (a noisy label: up to a token a byte) are claimed on
   * `meter`; the buffers kept between streams (KEEP_TOKENS in png.ts) are the thread's.
   */
  reset(meter: DecodeMeter = UNMETERED): void {
    this.#meter = meter;
    this.#tokenBytes = 0;
    this.#unitBytes = 0;
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
    const grown = new Uint32Array(this.#claim(4 * Math.max(need, this.#tokens.length * 2)).buffer);
    grown.set(this.#tokens.subarray(0, this.#count));
    this.#tokens = grown;
    this.#meter.release?.(this.#tokenBytes); // the buffer it replaces
    this.#tokenBytes = grown.byteLength;
  }

  /** Room for a copy of `bytes` bytes (`copy`): a token each MAX_MATCH bytes, one more for its tail. */
  reserveCopy(bytes: number): void {
    this.reserve(Math.ceil(bytes / MAX_MATCH) + 1);
  }

  /** `bytes` for a buffer grown for this stream, claimed on its meter. */
  #claim(bytes: number): Uint8Array<ArrayBuffer> {
    return claimBytes(this.#meter, bytes, 'The PNG encoder (its tokens, one a run of pixels)');
  }

  /**
   * Lets go of a token buffer (or output buffer) above `keepTokens` entries (call when the stream is written), and
   * gives back what the stream claimed.
   */
  trim(keepTokens: number): void {
    if (this.#tokens.length > keepTokens) this.#tokens = new Uint32Array(1 << 14);
    if (this.#units.length > keepTokens) this.#units = new Uint16Array(1 << 14);
    this.#meter.release?.(this.#tokenBytes + this.#unitBytes);
    this.#tokenBytes = 0;
    this.#unitBytes = 0;
    this.#meter = UNMETERED;
  }

  /** `n` (>= 1) bytes of value `v`: one literal, then copies of the byte before (short tails as literals). */
  run(v: number, n: number): void {
    if (n === 1) {
      this.literal(v);
      return;
    }
    this.#tokens[this.#count++] = v;
    this.#litFreq[v]++;
    if (n > MIN_MATCH) this.copy(1, n - 1);
    else
      for (let left = n - 1; left > 0; left--) {
        this.#tokens[this.#count++] = v;
        this.#litFreq[v]++;
      }
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

  /**
   * One row: the byte `first` (its filter type), then `length` bytes, the bytewise differences (above - below) mod 256
   * of words [w0, w1) of two rows of words (`above` from word `aboveAt`, `below` from `belowAt`) and zeros outside
   * them. `reversed` reads the words last first and each word's bytes swapped (then `length` is a multiple of 4);
   * otherwise the last word may hold bytes past `length`, which are left out.
   *
   * The hot path of a label: the stream's state is in locals, a word of the byte the run repeats (mostly zeros)
   * extends it at once, and runs are sent without a call. A row of under ADLER_MAX_RUN bytes moves the Adler-32
   * sums by less than their slack (from a < 2^24, b < 2^44: a < 2^25, b < 2^44 + 2^41), so they are reduced once a row.
   */
  differenceRow(
    first: number,
    length: number,
    above: Int32Array,
    aboveAt: number,
    below: Int32Array,
    belowAt: number,
    w0: number,
    w1: number,
    reversed: boolean,
  ): void {
    this.reserve(length + 1);
    const allWords = (length + 3) >> 2;
    // Bytes of a last word that runs past the row: sent on their own after the loop.
    const partial = w1 === allWords && (length & 3) !== 0 ? length & 3 : 0;
    const loopEnd = partial > 0 ? w1 - 1 : w1;
    const lead = (reversed ? allWords - w1 : w0) << 2;
    if (length >= ADLER_MAX_RUN) {
      this.#longDifferenceRow(first, length, above, aboveAt, below, belowAt, w0, w1, reversed);
      return;
    }
    const t = this.#tokens,
      lit = this.#litFreq,
      dist = this.#distFreq;
    let c = this.#count,
      a = this.#a,
      b = this.#b;
    let v = first,
      n = 1,
      vv = Math.imul(v, 0x01010101);
    if (lead > 0) {
      t[c++] = v;
      lit[v]++;
      a += v;
      b += a;
      v = 0;
      n = lead;
      vv = 0;
    }
    const step = reversed ? -1 : 1;
    let i = reversed ? w1 - 1 : w0;
    for (let left = loopEnd - w0; left > 0; left--, i += step) {
      if (v === 0) {
        // equal words (zeros) in a tight loop, one per direction so that each steps by a constant
        let j = i;
        if (reversed) for (const stop = i - left; j > stop && above[aboveAt + j] === below[belowAt + j]; ) j--;
        else for (const stop = i + left; j < stop && above[aboveAt + j] === below[belowAt + j]; ) j++;
        const same = reversed ? i - j : j - i;
        i = j;
        if (same > 0) {
          n += same << 2;
          left -= same;
          if (left === 0) break;
        }
      }
      const x = above[aboveAt + i],
        y = below[belowAt + i];
      let word = bytewiseDifference(x, y);
      if (word === vv) {
        n += 4;
        continue;
      }
      if (reversed) word = swapBytes(word);
      // Which bytes differ from the byte before them (bit k for byte k): the first ends the run carried in, the
      // bytes from it to the last one before the word's final run are literals (runs inside a word are under 4
      // bytes, which `run` sends as literals too), and the final run is carried out. No branch per byte.
      const e = word ^ ((word << 8) | v);
      const ne = (((e & 0x7f7f7f7f) + 0x7f7f7f7f) | e) & HIGH_BITS;
      const starts = ((ne >>> 7) | (ne >>> 14) | (ne >>> 21) | (ne >>> 28)) & 15;
      const firstChange = 31 - Math.clz32(starts & -starts),
        last = 31 - Math.clz32(starts);
      n += firstChange;
      t[c++] = v;
      lit[v]++;
      if (n === 1) {
        a += v;
        b += a;
      } else {
        if (n <= MIN_MATCH)
          for (let m = n - 1; m > 0; m--) {
            t[c++] = v;
            lit[v]++;
          }
        else {
          for (let m = n - 1; m > 0; ) {
            const len = m > MAX_MATCH ? (m - MAX_MATCH < MIN_MATCH ? m - MIN_MATCH : MAX_MATCH) : m;
            t[c++] = RUN_TOKEN | len;
            lit[LENGTH_SYMBOL[len]]++;
            dist[0]++;
            m -= len;
          }
        }
        b += n * a + v * ((n * (n + 1)) / 2);
        a += n * v;
      }
      // Bytes firstChange .. last - 1 (0 to 3 of them) as literals: all three written, `count` of them kept.
      const count = last - firstChange,
        rest = word >>> (firstChange << 3);
      const q0 = rest & 255,
        q1 = (rest >>> 8) & 255,
        q2 = (rest >>> 16) & 255;
      const in1 = (1 - count) >>> 31,
        in2 = (2 - count) >>> 31; // 1 when count > 1, > 2
      t[c] = q0;
      t[c + 1] = q1;
      t[c + 2] = q2;
      c += count;
      lit[q0] += -count >>> 31;
      lit[q1] += in1;
      lit[q2] += in2;
      b += count * a + q0 * count + in1 * q1 * (count - 1) + in2 * q2 * (count - 2);
      a += (-count >>> 31) * q0 + in1 * q1 + in2 * q2;
      v = word >>> 24;
      n = 4 - last;
      vv = Math.imul(v, 0x01010101);
    }
    if (a >= ADLER_A_LIMIT || b >= ADLER_B_LIMIT) {
      a %= ADLER_MOD;
      b %= ADLER_MOD;
    }
    this.#count = c;
    this.#a = a;
    this.#b = b;
    if (partial > 0) {
      const x = above[aboveAt + i],
        y = below[belowAt + i];
      let word = bytewiseDifference(x, y);
      for (let k = 0; k < partial; k++, word >>>= 8) {
        const z = word & 255;
        if (z === v) n++;
        else {
          this.run(v, n);
          v = z;
          n = 1;
        }
      }
    }
    const trail = length - Math.min(length, lead + ((w1 - w0) << 2));
    if (trail > 0) {
      if (v === 0) n += trail;
      else {
        this.run(v, n);
        v = 0;
        n = trail;
      }
    }
    this.run(v, n);
  }

  /** `differenceRow` for rows too long for its Adler-32 shortcut: a byte at a time, a run at a time. */
  #longDifferenceRow(
    first: number,
    length: number,
    above: Int32Array,
    aboveAt: number,
    below: Int32Array,
    belowAt: number,
    w0: number,
    w1: number,
    reversed: boolean,
  ): void {
    const allWords = (length + 3) >> 2;
    let v = first,
      n = 1;
    for (let r = 0; r < allWords; r++) {
      const i = reversed ? allWords - 1 - r : r;
      let word = 0;
      if (i >= w0 && i < w1) {
        const x = above[aboveAt + i],
          y = below[belowAt + i];
        word = bytewiseDifference(x, y);
        if (reversed) word = swapBytes(word);
      }
      for (let k = 0; k < 4 && 4 * r + k < length; k++, word >>>= 8) {
        const z = word & 255;
        if (z === v) n++;
        else {
          this.run(v, n);
          v = z;
          n = 1;
        }
      }
    }
    this.run(v, n);
  }

  /** `n` (>= 3) bytes copied from `distance` back; the caller adds them to the checksum with `sum`. */
  copy(distance: number, n: number): void {
    const t = this.#tokens,
      lit = this.#litFreq;
    let c = this.#count;
    const dc = DISTANCE_CODE[distance];
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
    while (n > ADLER_MAX_RUN) {
      this.sum(v, ADLER_MAX_RUN);
      n -= ADLER_MAX_RUN;
    }
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
    const put = (sym: number, extra = 0): void => {
      this.#header[h++] = sym | (extra << 5);
      this.#clFreq[sym]++;
    };
    for (let i = 0; i < size; ) {
      const v = all[i];
      let run = 1;
      while (i + run < size && all[i + run] === v) run++;
      i += run;
      if (v === 0) {
        while (run >= 11) {
          const k = Math.min(run, 138);
          put(18, k - 11);
          run -= k;
        }
        if (run >= 3) {
          put(17, run - 3);
          run = 0;
        }
      } else {
        put(v);
        run--;
        while (run >= 3) {
          const k = Math.min(run, 6);
          put(16, k - 3);
          run -= k;
        }
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
    if (this.#units.length < units) {
      this.#units = new Uint16Array(this.#claim(2 * Math.max(units, this.#units.length * 2)).buffer);
      this.#meter.release?.(this.#unitBytes); // the buffer it replaces
      this.#unitBytes = this.#units.byteLength;
    }
    const w = new BitWriter(this.#units);
    w.put(1, 1); // final block
    w.put(2, 2); // dynamic Huffman
    w.put(this.#hlit - 257, 5);
    w.put(this.#hdist - 1, 5);
    w.put(this.#hclen - 4, 4);
    for (let i = 0; i < this.#hclen; i++) w.put(this.#clLen[CL_ORDER[i]], 3);
    for (let i = 0; i < this.#headerCount; i++) {
      const sym = this.#header[i] & 31,
        extra = this.#header[i] >>> 5;
      w.put(this.#clCode[sym], this.#clLen[sym]);
      if (sym === 16) w.put(extra, 2);
      else if (sym === 17) w.put(extra, 3);
      else if (sym === 18) w.put(extra, 7);
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
    const fast = this.#fastTable,
      match = this.#matchTable;
    for (let s = 0; s < 256; s++) fast[s] = this.#litCode[s] | (this.#litLen[s] << 16);
    const d1 = this.#distCode[0] | (this.#distLen[0] << 16);
    for (let len = MIN_MATCH; len <= MAX_MATCH; len++) {
      const sym = LENGTH_SYMBOL[len],
        symLen = this.#litLen[sym],
        extra = LENGTH_EXTRA_BITS[len];
      const bits = this.#litCode[sym] | (LENGTH_EXTRA[len] << symLen),
        count = symLen + extra;
      match[len] = bits | (count << 20); // at most 20 bits of code and extra
      const withDistance = count + (d1 >>> 16);
      fast[RUN_TOKEN + len] = withDistance <= 16 ? bits | ((d1 & 0xffff) << count) | (withDistance << 16) : 0;
    }
    const out = w.out,
      t = this.#tokens,
      distCode = this.#distCode,
      distLen = this.#distLen;
    // n < 16 between tokens, and a fast entry adds at most 16 bits: acc stays below 2^31.
    let pos = w.pos,
      acc = w.acc,
      n = w.n;
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
      const len = tok & 511,
        distance = tok >>> 9;
      // Length code and extra bits (up to 20), then the distance code and its extra bits, 16 bits at a time.
      const m = match[len],
        count = m >>> 20;
      if (count > 16) {
        acc |= (m & 0xffff) << n;
        n += 16;
        out[pos++] = acc;
        acc >>>= 16;
        n -= 16;
        acc |= ((m >>> 16) & 0xf) << n;
        n += count - 16;
      } else {
        acc |= (m & 0xfffff) << n;
        n += count;
      }
      if (n >= 16) {
        out[pos++] = acc;
        acc >>>= 16;
        n -= 16;
      }
      const dc = DISTANCE_CODE[distance];
      acc |= distCode[dc] << n;
      n += distLen[dc];
      if (DIST_EXTRA_BITS[dc] > 0) {
        if (n >= 16) {
          out[pos++] = acc;
          acc >>>= 16;
          n -= 16;
        }
        acc |= (distance - DIST_BASE[dc]) << n;
        n += DIST_EXTRA_BITS[dc];
      }
      if (n >= 16) {
        out[pos++] = acc;
        acc >>>= 16;
        n -= 16;
      }
    }
    w.pos = pos;
    w.acc = acc;
    w.n = n;
  }

  /** Bits of the block `prepare` measured (for checks). */
  get bits(): number {
    return this.#bits;
  }
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
    if (this.n >= 16) {
      this.out[this.pos++] = this.acc;
      this.acc >>>= 16;
      this.n -= 16;
    }
  }

  /** Stores the last bits; returns the stream's length in bytes (padded to a whole byte). */
  finish(): number {
    if (this.n === 0) return 2 * this.pos;
    this.out[this.pos] = this.acc;
    return 2 * this.pos + (this.n > 8 ? 2 : 1);
  }
}
