// HP PCL XL (PCL 6) print job: one session whose units are the label's dots, one custom-size page per label holding
// the label as a 1-bit image. Operators, attributes and their encoding from the PCL XL Feature Reference, Protocol
// Class 2.0 (HP): chapter 5 (operators), Appendix B (stream tags), Appendix E (attribute ids).

import { dotsPerInch } from '../../layout/dots.js';
import { JobBytes, packBits } from './job-bytes.js';
import type { LabelDots, PrintJobEncoder } from './label-dots.js';

const UEL = '\x1b%-12345X';

// Appendix B: data type tags, attribute tag, embedded data tag.
const UBYTE = 0xc0;
const UINT16 = 0xc1;
const UBYTE_ARRAY = 0xc8;
const UINT16_XY = 0xd1;
const SINT16_XY = 0xd3;
const REAL32_XY = 0xd5;
const ATTR_UBYTE = 0xf8;
const DATA_LENGTH = 0xfa;

// Appendix B: operator tags.
const BeginSession = 0x41;
const EndSession = 0x42;
const BeginPage = 0x43;
const EndPage = 0x44;
const OpenDataSource = 0x48;
const CloseDataSource = 0x49;
const SetColorSpace = 0x6a;
const SetCursor = 0x6b;
const BeginImage = 0xb0;
const ReadImage = 0xb1;
const EndImage = 0xb2;

// Appendix E: attribute ids.
const PaletteDepth = 0x02;
const ColorSpace = 0x03;
const PaletteData = 0x06;
const Orientation = 0x28;
const CustomMediaSize = 0x2f;
const CustomMediaSizeUnits = 0x30;
const PageCopies = 0x31;
const Point = 0x4c;
const ColorDepth = 0x62;
const BlockHeight = 0x63;
const ColorMapping = 0x64;
const CompressMode = 0x65;
const DestinationSize = 0x67;
const SourceHeight = 0x6b;
const SourceWidth = 0x6c;
const StartLine = 0x6d;
const DataOrg = 0x82;
const Measure = 0x86;
const SourceType = 0x88;
const UnitsPerMeasure = 0x89;
const ErrorReport = 0x8f;

// Enumerations (chapter 5 attribute descriptions).
const eInch = 0;
const eBackChAndErrPage = 3;
const eDefaultDataSource = 0;
const eBinaryLowByteFirst = 1;
const ePortraitOrientation = 0;
const eGray = 1;
const e8Bit = 2;
const eIndexedPixel = 1;
const e1Bit = 0;
const eRLECompression = 1;

/** Rows per ReadImage block. */
const BLOCK_ROWS = 256;

export const encodePcl6: PrintJobEncoder = async (labels, setup) => {
  const job = new JobBytes();
  const dpi = dotsPerInch(setup.dpmm);
  // PJL ENTER LANGUAGE = PCLXL, then the stream header: binding ")" (binary, low byte first), class 2.0.
  job.text(`${UEL}@PJL ENTER LANGUAGE = PCLXL\r\n) HP-PCL XL;2;0;Comment zpl-legacy-compat\n`);
  const ops = new Operators();
  // BeginSession: user units of 1/dpi inch, so one unit is one dot; errors to the back channel and an error page.
  ops.uint16xy(dpi, dpi, UnitsPerMeasure).ubyte(eInch, Measure).ubyte(eBackChAndErrPage, ErrorReport).op(BeginSession);
  // OpenDataSource: the image data is embedded in the stream, little-endian.
  ops.ubyte(eDefaultDataSource, SourceType).ubyte(eBinaryLowByteFirst, DataOrg).op(OpenDataSource);
  job.bytes(ops.take());
  for await (const label of labels) {
    // BeginPage: portrait, a custom medium the label's size in inches.
    ops.ubyte(ePortraitOrientation, Orientation);
    ops.real32xy(setup.widthIn, setup.heightIn, CustomMediaSize).ubyte(eInch, CustomMediaSizeUnits).op(BeginPage);
    // SetColorSpace: gray with a two-entry 8-bit palette, index 0 white and 1 black.
    ops.ubyte(eGray, ColorSpace).ubyte(e8Bit, PaletteDepth).ubyteArray([255, 0], PaletteData).op(SetColorSpace);
    // SetCursor to the page origin; BeginImage: 1-bit indexed pixels, drawn one unit (dot) per pixel.
    ops.sint16xy(0, 0, Point).op(SetCursor);
    ops.ubyte(eIndexedPixel, ColorMapping).ubyte(e1Bit, ColorDepth);
    ops.uint16(label.width, SourceWidth).uint16(label.height, SourceHeight);
    ops.uint16xy(label.width, label.height, DestinationSize).op(BeginImage);
    job.bytes(ops.take());
    writeImageBlocks(job, ops, label);
    // EndImage; EndPage: one copy.
    ops.op(EndImage).uint16(1, PageCopies).op(EndPage);
    job.bytes(ops.take());
  }
  ops.op(CloseDataSource).op(EndSession);
  job.bytes(ops.take()).text(UEL);
  return job.finish();
};

/** ReadImage blocks: each scan line padded to a multiple of 4 bytes, then compressed with eRLECompression (PackBits). */
function writeImageBlocks(job: JobBytes, ops: Operators, label: LabelDots): void {
  const { stride, bits, height } = label;
  const padded = (stride + 3) & ~3;
  const line = new Uint8Array(padded);
  for (let y0 = 0; y0 < height; y0 += BLOCK_ROWS) {
    const rows = Math.min(BLOCK_ROWS, height - y0);
    const data: number[] = [];
    for (let y = y0; y < y0 + rows; y++) {
      line.set(bits.subarray(y * stride, (y + 1) * stride));
      packBits(line, data);
    }
    ops.uint16(y0, StartLine).uint16(rows, BlockHeight).ubyte(eRLECompression, CompressMode).op(ReadImage);
    job.bytes(ops.take());
    const head = new Uint8Array(5);
    head[0] = DATA_LENGTH;
    new DataView(head.buffer).setUint32(1, data.length, true);
    job.bytes(head).bytes(Uint8Array.from(data));
  }
}

/** Attribute lists and operators in the binary, low-byte-first encoding (Appendix B). */
class Operators {
  #bytes: number[] = [];

  ubyte(v: number, attr: number): this {
    return this.#put(UBYTE, v).#attr(attr);
  }

  uint16(v: number, attr: number): this {
    this.#bytes.push(UINT16, v & 0xff, v >> 8);
    return this.#attr(attr);
  }

  uint16xy(x: number, y: number, attr: number): this {
    this.#bytes.push(UINT16_XY, x & 0xff, x >> 8, y & 0xff, y >> 8);
    return this.#attr(attr);
  }

  sint16xy(x: number, y: number, attr: number): this {
    this.#bytes.push(SINT16_XY, x & 0xff, (x >> 8) & 0xff, y & 0xff, (y >> 8) & 0xff);
    return this.#attr(attr);
  }

  real32xy(x: number, y: number, attr: number): this {
    const b = new DataView(new ArrayBuffer(8));
    b.setFloat32(0, x, true);
    b.setFloat32(4, y, true);
    this.#bytes.push(REAL32_XY, ...new Uint8Array(b.buffer));
    return this.#attr(attr);
  }

  /** ubyte_array: its length as a uint16, then the bytes. */
  ubyteArray(values: number[], attr: number): this {
    this.#bytes.push(UBYTE_ARRAY, UINT16, values.length & 0xff, values.length >> 8, ...values);
    return this.#attr(attr);
  }

  op(tag: number): this {
    this.#bytes.push(tag);
    return this;
  }

  take(): Uint8Array {
    const out = Uint8Array.from(this.#bytes);
    this.#bytes = [];
    return out;
  }

  #put(...b: number[]): this {
    this.#bytes.push(...b);
    return this;
  }

  #attr(id: number): this {
    return this.#put(ATTR_UBYTE, id);
  }
}
