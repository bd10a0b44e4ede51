// PNG encoding: 8-bit greyscale (colour type 0) or 1-bit for bitonal output, every row Up-filtered. One pass over
// the raster filters and compresses: a row equal to the one above is found with one compare and becomes a copy of
// the (all-zero) filtered row before it; other rows are filtered four bytes at a time and sent as runs of equal
// bytes. The deflate block's Huffman table comes from the counted symbols (deflate.ts). Output is the same bytes
// for the same raster, and inflates to the same filtered rows as png-rows.ts builds for zlib.

import { crc32 } from 'node:zlib';
import { UNMETERED, type DecodeMeter } from '../decode/meter.js';
import type { Raster } from '../raster/raster.js';
import { settle, UPRIGHT, type RowOrder } from '../raster/row-order.js';
import { MAX_DISTANCE, RunDeflater } from './deflate.js';
import { bitonalRows, FILTER_UP, sameAsRowAbove } from './png-rows.js';
import { finish, type Steps } from '../steps.js';

export { BITONAL_THRESHOLD, bitonalRows, DEFLATE_OPTIONS, FILTER_UP, MAX_REUSED_ROWS_BYTES } from './png-rows.js';

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** Token buffers above this many entries (4 bytes each) are not kept between labels. */
const KEEP_TOKENS = 1 << 20;

/** A deflater and its row copies, reused by one label's encoding at a time. */
interface EncoderScratch {
  deflater: RunDeflater;
  rows: RowCopies;
}

/** One per thread; a label encoded while another's encoding is paused (a sliced render) gets its own. */
const shared: EncoderScratch = { deflater: new RunDeflater(), rows: rowCopies(0) };
let sharedBusy = false;

/**
 * `readAs` says how the raster's rows make the label (^PM Y, ^PO I left to the encoder, raster/paint.ts): the 8-bit
 * encoder reads them so, in one pass; 1-bit output turns the raster in place first. What encoding holds (1-bit rows,
 * the deflater's buffers grown for this label) is claimed on `meter` while it is held.
 */
export function encodePng(
  r: Raster,
  bitonal = false,
  readAs: RowOrder = UPRIGHT,
  meter: DecodeMeter = UNMETERED,
): Uint8Array {
  return finish(encodePngSteps(r, bitonal, readAs, meter));
}

/** encodePng() as steps: each row is charged to `meter`, and the work may pause between rows when its slice is spent. */
export function* encodePngSteps(
  r: Raster,
  bitonal = false,
  readAs: RowOrder = UPRIGHT,
  meter: DecodeMeter = UNMETERED,
): Steps<Uint8Array> {
  const own = sharedBusy;
  const scratch = own ? { deflater: new RunDeflater(), rows: rowCopies(0) } : shared;
  sharedBusy = true;
  try {
    return yield* encodeWith(scratch, r, bitonal, readAs, meter);
  } finally {
    if (!own) sharedBusy = false;
  }
}

function* encodeWith(
  scratch: EncoderScratch,
  r: Raster,
  bitonal: boolean,
  readAs: RowOrder,
  meter: DecodeMeter,
): Steps<Uint8Array> {
  const { deflater } = scratch;
  deflater.reset(meter);
  if (bitonal) {
    // 1-bit rows are built in a buffer the thread reuses (png-rows.ts): they are deflated without a pause.
    const stride = ((r.width + 7) >> 3) + 1;
    meter.claim(stride * r.height, 'The PNG rows');
    deflateFilteredRows(deflater, bitonalRows(settle(r, readAs)), stride, r.height, meter);
    meter.release?.(stride * r.height); // the rows are tokens now
  } else yield* deflateGreyRows(scratch, r, readAs, meter);
  const idatLength = deflater.prepare();
  // Its own ArrayBuffer (never the shared pool slab), so a worker thread can transfer it without a copy.
  const out = Buffer.allocUnsafeSlow(SIGNATURE.length + 12 + 13 + 12 + idatLength + 12);
  out.set(SIGNATURE, 0);
  let at = writeChunkHead(out, SIGNATURE.length, 'IHDR', 13);
  out.writeUInt32BE(r.width, at);
  out.writeUInt32BE(r.height, at + 4);
  out[at + 8] = bitonal ? 1 : 8; // bit depth
  out[at + 9] = 0; // colour type: greyscale
  out[at + 10] = 0; // compression
  out[at + 11] = 0; // filter method
  out[at + 12] = 0; // no interlace
  at = writeChunkTail(out, at, 13);
  at = writeChunkHead(out, at, 'IDAT', idatLength);
  const end = deflater.write(out, at);
  if (end !== at + idatLength) throw new Error(`PNG encoder: IDAT measured ${idatLength} bytes, wrote ${end - at}`);
  deflater.trim(KEEP_TOKENS);
  at = writeChunkTail(out, at, idatLength);
  at = writeChunkHead(out, at, 'IEND', 0);
  writeChunkTail(out, at, 0);
  return out;
}

/** Writes length and type; returns where the chunk data starts. */
function writeChunkHead(out: Buffer, at: number, type: string, length: number): number {
  out.writeUInt32BE(length, at);
  out.write(type, at + 4, 'latin1');
  return at + 8;
}

/** Writes the CRC over type and data (data at `dataAt`); returns where the next chunk starts. */
function writeChunkTail(out: Buffer, dataAt: number, length: number): number {
  out.writeUInt32BE(crc32(out.subarray(dataAt - 4, dataAt + length)) >>> 0, dataAt + length);
  return dataAt + length + 4;
}

/** Row copies for widths that are not whole words (reused; grown, never shrunk below a label's row). */
interface RowCopies {
  aboveWords: Int32Array;
  rowWords: Int32Array;
  aboveBytes: Uint8Array;
  rowBytes: Uint8Array;
}

function rowCopies(words: number): RowCopies {
  const aboveWords = new Int32Array(words);
  const rowWords = new Int32Array(words);
  return {
    aboveWords,
    rowWords,
    aboveBytes: new Uint8Array(aboveWords.buffer),
    rowBytes: new Uint8Array(rowWords.buffer),
  };
}

/**
 * Tracks blank filtered rows ([FILTER_UP, 0 ... 0]): from the second in a row on, each is a copy of the one before,
 * gathered into as few long copies as possible.
 */
class BlankRows {
  pending = 0;
  previousBlank = false;
  constructor(
    readonly d: RunDeflater,
    readonly stride: number,
  ) {}

  /** A blank row: copied when the row before was blank too and close enough, else sent as two runs. */
  add(): void {
    const { d, stride } = this;
    if (this.previousBlank && stride <= MAX_DISTANCE && stride >= 4) {
      this.pending += stride;
      d.sum(FILTER_UP, 1);
      d.sum(0, stride - 1);
    } else {
      this.flush();
      d.reserve(stride);
      d.run(FILTER_UP, 1);
      d.run(0, stride - 1);
    }
    this.previousBlank = true;
  }

  /** Sends the gathered copies; the next row is not blank when `endOfRun`. */
  flush(notBlank = false): void {
    if (this.pending > 0) {
      this.d.reserveCopy(this.pending);
      this.d.copy(this.stride, this.pending);
      this.pending = 0;
    }
    if (notBlank) this.previousBlank = false;
  }
}

/** 8-bit grey rows (255 - ink), Up-filtered, straight into the deflater; rows read as `readAs` says. */
function* deflateGreyRows(scratch: EncoderScratch, r: Raster, readAs: RowOrder, meter: DecodeMeter): Steps<void> {
  const d = scratch.deflater;
  const { width, height } = r;
  const { flipX, flipY } = readAs;
  const ink = Buffer.from(r.ink.buffer, r.ink.byteOffset, r.ink.byteLength);
  const stride = width + 1;
  const blank = new BlankRows(d, stride);
  /** The raster row that is the label's row j. */
  const rowOf = (j: number): number => (flipY ? height - 1 - j : j);
  // Row 0 has nothing above: its bytes are the grey levels themselves.
  d.reserve(stride);
  let v = FILTER_UP,
    n = 1;
  const first = rowOf(0) * width;
  for (let x = 0; x < width; x++) {
    const b = 255 - ink[first + (flipX ? width - 1 - x : x)];
    if (b === v) n++;
    else {
      d.run(v, n);
      v = b;
      n = 1;
    }
  }
  d.run(v, n);
  const words = width >> 2,
    tail = width & 3;
  // Rows already 4-byte aligned (most label widths): the words are read in place, nothing copied; a mirrored row
  // is read last word first, each word's bytes swapped. Other rows are copied (and reversed) into aligned words.
  const whole =
    tail === 0 && r.ink.byteOffset % 4 === 0
      ? new Int32Array(r.ink.buffer, r.ink.byteOffset, (width * height) >> 2)
      : undefined;
  const backwards = whole !== undefined && flipX;
  if (!whole && scratch.rows.aboveWords.length < words + 1) scratch.rows = rowCopies(words + 1);
  let above = scratch.rows.aboveWords,
    cur = scratch.rows.rowWords,
    aboveB = scratch.rows.aboveBytes,
    curB = scratch.rows.rowBytes;
  if (!whole) copyRow(ink, first, width, flipX, aboveB);
  // Where the painter kept each row's drawn columns, two rows differ only within the union of theirs: two blank rows
  // are equal without a look, and in-place rows are scanned over that union's words alone (the rest are zeros).
  const painted = r.painted;
  for (let y = 1; y < height; y++) {
    meter.charge(width);
    if (meter.sliceDue) yield;
    const at = rowOf(y),
      atAbove = rowOf(y - 1);
    let from = 0,
      to = width;
    if (painted) {
      from = Math.min(painted[2 * at], painted[2 * atAbove]);
      to = Math.max(painted[2 * at + 1], painted[2 * atAbove + 1]);
      if (from >= to) {
        blank.add();
        continue;
      }
    }
    if (sameAsRowAbove(ink, width, Math.max(at, atAbove), from, to)) {
      blank.add();
      continue;
    }
    blank.flush(true);
    if (whole)
      d.differenceRow(FILTER_UP, width, whole, atAbove * words, whole, at * words, from >> 2, (to + 3) >> 2, backwards);
    else {
      copyRow(ink, at * width, width, flipX, curB);
      d.differenceRow(FILTER_UP, width, above, 0, cur, 0, 0, words + (tail > 0 ? 1 : 0), false);
    }
    if (!whole) {
      const t = above;
      above = cur;
      cur = t;
      const tb = aboveB;
      aboveB = curB;
      curB = tb;
    }
  }
  blank.flush();
}

/** One raster row into the start of word-aligned `dst`, reversed when mirrored. */
function copyRow(ink: Buffer, start: number, width: number, reversed: boolean, dst: Uint8Array): void {
  ink.copy(dst, 0, start, start + width);
  if (reversed) dst.subarray(0, width).reverse();
}

/** Rows already filtered (`stride` bytes each, filter byte first; an unchanged row all zeros), into the deflater. */
function deflateFilteredRows(
  d: RunDeflater,
  rows: Uint8Array,
  stride: number,
  height: number,
  meter: DecodeMeter,
): void {
  const buf = Buffer.from(rows.buffer, rows.byteOffset, rows.byteLength);
  const blank = new BlankRows(d, stride);
  for (let y = 0; y < height; y++) {
    meter.charge(stride);
    const o = y * stride;
    if (y > 0 && isZero(buf, o + 1, o + stride)) {
      blank.add();
      continue;
    }
    blank.flush(true);
    d.reserve(stride);
    let v = rows[o],
      n = 1;
    for (let i = o + 1; i < o + stride; i++) {
      const b = rows[i];
      if (b === v) n++;
      else {
        d.run(v, n);
        v = b;
        n = 1;
      }
    }
    d.run(v, n);
  }
  blank.flush();
}

let zeros = Buffer.alloc(0);

function isZero(buf: Buffer, start: number, end: number): boolean {
  if (zeros.length < end - start) zeros = Buffer.alloc(end - start);
  return buf.compare(zeros, 0, end - start, start, end) === 0;
}
