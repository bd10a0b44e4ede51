// Reads an HP PCL XL (PCL 6) job from the PCL XL Feature Reference, Protocol Class 2.0, alone. After PJL's
// ENTER LANGUAGE = PCLXL comes the stream header line (binding ")" = binary, low byte first); then tags: data values
// (Appendix B: ubyte c0, uint16 c1, uint32 c2, sint16 c3, sint32 c4, real32 c5, arrays c8-cd led by their length,
// xy pairs d0-d5, boxes e0-e5) each followed by an attribute id (f8 + ubyte), operators that consume the attributes
// before them, and embedded data (fa + uint32 length, fb + ubyte length) after ReadImage. Images: BeginImage's
// source and destination sizes; ReadImage blocks of rows, each row padded to 4 bytes, uncompressed or RLE (PackBits);
// 1-bit indexed pixels look up the palette of SetColorSpace (gray levels: below 128 prints black).

import { DotGrid, JobError, latin1, type PrintedDots, unpackBits } from './printed.js';

export interface Pcl6Page extends PrintedDots {
  orientation: number | undefined;
  /** CustomMediaSize and its units (0 inch, 1 mm, 2 tenths of a mm). */
  customMediaSize: [number, number] | undefined;
  customMediaSizeUnits: number | undefined;
  copies: number;
  /** The image's cursor position and destination size in user units (one unit is one dot here). */
  image: { x: number; y: number; sourceWidth: number; sourceHeight: number; destination: [number, number] };
}

export interface Pcl6Job {
  /** BeginSession: user units per measure (x, y) and the measure (0 inch, 1 mm, 2 tenths of a mm). */
  unitsPerMeasure: [number, number] | undefined;
  measure: number | undefined;
  pages: Pcl6Page[];
}

type Value = number | number[];

// Appendix E attribute ids read here.
const ATTR = {
  PaletteDepth: 0x02,
  ColorSpace: 0x03,
  PaletteData: 0x06,
  Orientation: 0x28,
  CustomMediaSize: 0x2f,
  CustomMediaSizeUnits: 0x30,
  PageCopies: 0x31,
  Point: 0x4c,
  ColorDepth: 0x62,
  BlockHeight: 0x63,
  ColorMapping: 0x64,
  CompressMode: 0x65,
  DestinationSize: 0x67,
  SourceHeight: 0x6b,
  SourceWidth: 0x6c,
  StartLine: 0x6d,
  Measure: 0x86,
  UnitsPerMeasure: 0x89,
} as const;

export function readPcl6(job: Uint8Array): Pcl6Job {
  const text = latin1(job);
  const header = text.indexOf('\n', text.indexOf('ENTER LANGUAGE'));
  if (!/@PJL ENTER LANGUAGE\s*=\s*PCLXL/.test(text.slice(0, header))) throw new JobError('PCL XL: no ENTER LANGUAGE');
  let at = header + 1;
  if (!text.startsWith(') HP-PCL XL;2;', at)) throw new JobError('PCL XL: no class 2 low-byte-first stream header');
  at = text.indexOf('\n', at) + 1;
  const view = new DataView(job.buffer, job.byteOffset, job.byteLength);
  const result: Pcl6Job = { unitsPerMeasure: undefined, measure: undefined, pages: [] };
  let attrs = new Map<number, Value>();
  let page: Partial<Pcl6Page> | undefined;
  let palette: number[] = [];
  let image: { grid: DotGrid; info: Pcl6Page['image']; indexed: boolean } | undefined;
  let cursor: [number, number] = [0, 0];
  const num = (id: number): number => {
    const v = attrs.get(id);
    if (typeof v !== 'number') throw new JobError(`PCL XL: attribute ${id} missing or not a number`);
    return v;
  };
  const pair = (id: number): [number, number] => {
    const v = attrs.get(id);
    if (!Array.isArray(v) || v.length !== 2) throw new JobError(`PCL XL: attribute ${id} missing or not a pair`);
    return [v[0]!, v[1]!];
  };
  const scalar = (tag: number): number => {
    switch (tag) {
      case 0xc0:
        return job[at++]!;
      case 0xc1:
        at += 2;
        return view.getUint16(at - 2, true);
      case 0xc2:
        at += 4;
        return view.getUint32(at - 4, true);
      case 0xc3:
        at += 2;
        return view.getInt16(at - 2, true);
      case 0xc4:
        at += 4;
        return view.getInt32(at - 4, true);
      case 0xc5:
        at += 4;
        return view.getFloat32(at - 4, true);
      default:
        throw new JobError(`PCL XL: data type ${tag}`);
    }
  };
  while (at < job.length) {
    const tag = job[at++]!;
    if (tag === 0x1b) {
      if (text.startsWith('%-12345X', at)) break;
      throw new JobError('PCL XL: escape inside the stream');
    }
    if ([0x00, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20].includes(tag)) continue;
    if (tag >= 0xc0 && tag <= 0xc5) {
      const v = scalar(tag);
      attrs.set(attributeId(), v);
    } else if (tag >= 0xc8 && tag <= 0xcd) {
      const length = scalar(job[at++]!);
      const values: number[] = [];
      for (let i = 0; i < length; i++) values.push(scalar(tag - 8));
      attrs.set(attributeId(), values);
    } else if (tag >= 0xd0 && tag <= 0xd5) {
      const x = scalar(tag - 0x10),
        y = scalar(tag - 0x10);
      attrs.set(attributeId(), [x, y]);
    } else if (tag >= 0xe0 && tag <= 0xe5) {
      const box = [0, 1, 2, 3].map(() => scalar(tag - 0x20));
      attrs.set(attributeId(), box);
    } else {
      operator(tag);
      attrs = new Map();
    }
  }
  return result;

  function attributeId(): number {
    const t = job[at++];
    if (t === 0xf8) return job[at++]!;
    if (t === 0xf9) {
      at += 2;
      return view.getUint16(at - 2, true);
    }
    throw new JobError(`PCL XL: attribute id expected at ${at - 1}`);
  }

  function embeddedData(): Uint8Array {
    const t = job[at++];
    let length: number;
    if (t === 0xfa) {
      length = view.getUint32(at, true);
      at += 4;
    } else if (t === 0xfb) length = job[at++]!;
    else throw new JobError('PCL XL: ReadImage without embedded data');
    at += length;
    return job.subarray(at - length, at);
  }

  function operator(tag: number): void {
    switch (tag) {
      case 0x41: // BeginSession
        result.unitsPerMeasure = pair(ATTR.UnitsPerMeasure);
        result.measure = num(ATTR.Measure);
        break;
      case 0x48: // OpenDataSource
      case 0x49: // CloseDataSource
      case 0x42: // EndSession
        break;
      case 0x43: // BeginPage
        page = {
          orientation: attrs.get(ATTR.Orientation) as number | undefined,
          customMediaSize: attrs.has(ATTR.CustomMediaSize) ? pair(ATTR.CustomMediaSize) : undefined,
          customMediaSizeUnits: attrs.get(ATTR.CustomMediaSizeUnits) as number | undefined,
        };
        break;
      case 0x6a: // SetColorSpace
        if (num(ATTR.ColorSpace) !== 1) throw new JobError('PCL XL: only the gray color space is read');
        palette = (attrs.get(ATTR.PaletteData) as number[] | undefined) ?? [];
        if (palette.length > 0 && num(ATTR.PaletteDepth) !== 2) throw new JobError('PCL XL: palette not 8-bit');
        break;
      case 0x6b: // SetCursor
        cursor = pair(ATTR.Point);
        break;
      case 0xb0: {
        // BeginImage
        if (num(ATTR.ColorDepth) !== 0) throw new JobError('PCL XL: only 1-bit images are read');
        const sourceWidth = num(ATTR.SourceWidth),
          sourceHeight = num(ATTR.SourceHeight);
        image = {
          grid: new DotGrid(sourceWidth, sourceHeight),
          info: { x: cursor[0], y: cursor[1], sourceWidth, sourceHeight, destination: pair(ATTR.DestinationSize) },
          indexed: num(ATTR.ColorMapping) === 1,
        };
        break;
      }
      case 0xb1: {
        // ReadImage
        if (!image) throw new JobError('PCL XL: ReadImage outside an image');
        const start = num(ATTR.StartLine),
          rows = num(ATTR.BlockHeight),
          mode = num(ATTR.CompressMode);
        const data = embeddedData();
        const raw = mode === 1 ? unpackBits(data) : mode === 0 ? data : undefined;
        if (!raw) throw new JobError(`PCL XL: compression ${mode}`);
        const lineBytes = Math.ceil(Math.ceil(image.grid.width / 8) / 4) * 4;
        if (raw.length !== lineBytes * rows) throw new JobError('PCL XL: image block is not its rows, padded');
        for (let r = 0; r < rows; r++) {
          for (let x = 0; x < image.grid.width; x++) {
            const bit = (raw[r * lineBytes + (x >> 3)]! >> (7 - (x & 7))) & 1;
            // Indexed: the palette's gray level; direct: 0 black, 1 white.
            const gray = image.indexed ? palette[bit]! : bit * 255;
            image.grid.set(x, start + r, gray < 128);
          }
        }
        break;
      }
      case 0xb2: // EndImage
        if (!page || !image) throw new JobError('PCL XL: EndImage outside a page or image');
        Object.assign(page, image.grid.copy(), { image: image.info });
        image = undefined;
        break;
      case 0x44: // EndPage
        if (!page) throw new JobError('PCL XL: EndPage outside a page');
        page.copies = (attrs.get(ATTR.PageCopies) as number | undefined) ?? 1;
        if (page.dots === undefined) throw new JobError('PCL XL: a page with no image');
        result.pages.push(page as Pcl6Page);
        page = undefined;
        break;
      default:
        throw new JobError(`PCL XL: unexpected operator ${tag.toString(16)}`);
    }
  }
}
