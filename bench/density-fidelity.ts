// `node dist/bench/density-fidelity.js [--only SUBSTR] [--targets 12,24,6] [--diff DIR] [--breakdown] [--lossy-fields bitmap]`: how faithful X-Target-Dpmm is. Each corpus
// carrier label is converted from its density to each target; the converted ZPL rendered at the target is scored
// against the original rendered at its own density and scaled (every ink edge to the nearest pixel; ink F1 with one
// pixel of tolerance),
// every barcode the original decodes must decode to the same text, and no field may reach past the label's edges
// unless it already did.

import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatReader,
  RGBLuminanceSource,
} from '@zxing/library';
import { writeFileSync } from 'node:fs';
import { decodeGreyPng, encodeRgbaPng } from '../compare/png.js';
import { inkDiffRgba, scoreInk, type GreyImage } from '../compare/ink-f1.js';
import type { Dpmm } from '../renderer/api.js';
import { interpret } from '../renderer/interpreter.js';
import { dotsPerInch } from '../renderer/layout/dots.js';
import { fieldBoxes, unionBox } from '../renderer/layout/inspect.js';
import { rowOrder } from '../renderer/raster/row-order.js';
import type { LossyFields } from '../renderer/api.js';
import { scaleByEdges } from '../renderer/outputs/field-bitmap.js';
import { render } from '../renderer/render.js';
import { loadCorpus, readCorpusFile, type CorpusCase } from './corpus.js';

export interface DensityScore {
  id: string;
  target: Dpmm;
  f1: number;
  /** Ink F1 with every barcode's area left out of both images (whole-dot module widths resize symbols: physical). */
  f1Outside: number;
  loss?: KindLoss[];
  /** Barcodes the original decodes, and those of them the converted label decodes to the same text. */
  barcodes: number;
  sameText: number;
  /** Of the others, those the original's picture scaled to the target does not read either. */
  unreadableScaled: number;
  /** Fields past an edge in the converted label that were inside it in the original, and no notice said why. */
  fellOff: number;
  /** Such fields a notice was about (a device font that cannot shrink below one cell, a clamped module width). */
  fellOffNoticed: number;
  notices: number;
}

/** ZXing's format for a field kind (the kinds the corpus's carrier labels use). */
const ZXING_FORMAT: Readonly<Record<string, BarcodeFormat>> = {
  BC: BarcodeFormat.CODE_128,
  B3: BarcodeFormat.CODE_39,
  BQ: BarcodeFormat.QR_CODE,
  BX: BarcodeFormat.DATA_MATRIX,
  B7: BarcodeFormat.PDF_417,
  B2: BarcodeFormat.ITF,
  BE: BarcodeFormat.EAN_13,
  BU: BarcodeFormat.UPC_A,
};

/**
 * Ink scaled by `scale` onto a `width` x `height` canvas, each edge of each ink run put on the nearest target pixel
 * boundary (rows, then columns), a run at least one pixel. What a conversion that rounds every edge would draw: a
 * box filter thresholded at half coverage instead erases a 1-dot line split over two pixels at 6 dpmm and draws
 * every 1-dot line 1 pixel wide at 12 (1.5 exact).
 */
export function scaleInk(src: GreyImage, scale: number, width: number, height: number): GreyImage {
  const grid = {
    width: src.width,
    height: src.height,
    ink: (x: number, y: number) => src.grey[y * src.width + x]! < 128,
  };
  const { box, mask } = scaleByEdges(grid, { x0: 0, y0: 0, x1: src.width, y1: src.height }, scale, width, height);
  const grey = new Uint8Array(width * height).fill(255);
  const w = box.x1 - box.x0;
  for (let y = box.y0; y < box.y1; y++)
    for (let x = box.x0; x < box.x1; x++) if (mask[(y - box.y0) * w + x - box.x0]) grey[y * width + x] = 0;
  return { width, height, grey };
}

function crop(
  image: GreyImage,
  box: { x: number; y: number; width: number; height: number },
  margin: number,
): GreyImage {
  const x0 = Math.max(0, Math.floor(box.x - margin)),
    y0 = Math.max(0, Math.floor(box.y - margin));
  const x1 = Math.min(image.width, Math.ceil(box.x + box.width + margin)),
    y1 = Math.min(image.height, Math.ceil(box.y + box.height + margin));
  const width = Math.max(1, x1 - x0),
    height = Math.max(1, y1 - y0);
  const grey = new Uint8Array(width * height).fill(255);
  for (let y = y0; y < y1; y++)
    grey.set(image.grey.subarray(y * image.width + x0, y * image.width + x1), (y - y0) * width);
  return { width, height, grey };
}

function decode(image: GreyImage, format: BarcodeFormat): string | undefined {
  const source = new RGBLuminanceSource(Uint8ClampedArray.from(image.grey), image.width, image.height);
  const hints = new Map<DecodeHintType, unknown>([
    [DecodeHintType.POSSIBLE_FORMATS, [format]],
    [DecodeHintType.TRY_HARDER, true],
  ]);
  try {
    return new MultiFormatReader().decode(new BinaryBitmap(new HybridBinarizer(source)), hints).getText();
  } catch {
    return undefined;
  }
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface Drawn {
  image: GreyImage;
  /** Per field and element kind (a barcode and its interpretation line are two). */
  boxes: Array<{ kind: string; at: number; box: Box }>;
  /** Per field, in drawing order: one box around all it drew (fields pair across a conversion by this order). */
  fields: Array<{ kind: string; at: number; box: Box }>;
}

/** What a field is, for the loss breakdown: `text <font>`, or its command (`GB`, `BC`, `GF`...). */
function kindName(f: { kind: string; font: { name: string; path?: string } }): string {
  return f.kind === 'text' ? `text ${f.font.path ?? f.font.name}` : f.kind;
}

/** A label rendered (bitonal PNG, decoded) with its barcode fields' boxes in drawing order. */
async function drawn(zpl: Uint8Array, dpmm: Dpmm, c: CorpusCase): Promise<Drawn> {
  const req = { dpmm, widthIn: c.widthIn, heightIn: c.heightIn, index: c.index ?? 0 };
  const png = await render(zpl, { ...req, format: 'png' });
  const plan = interpret(zpl, dpmm);
  const kindAt = new Map(plan.labels.flatMap((l) => l.fields.map((f) => [f.at, kindName(f)] as const)));
  const found = fieldBoxes(zpl, req);
  // Boxes are before ^PM and ^PO turn the label; the picture is after: turned the same way, they cover what they drew.
  const { flipX, flipY } = rowOrder(found.mirror, found.invert);
  const turned = (b: Box): Box => ({
    x: flipX ? found.width - b.x - b.width : b.x,
    y: flipY ? found.height - b.y - b.height : b.y,
    width: b.width,
    height: b.height,
  });
  const boxes = found.elements.map((e) => ({
    kind: kindAt.get(e.span.start) ?? '',
    at: e.span.start,
    box: turned(e.box),
  }));
  return { image: await decodeGreyPng(png.body), boxes, fields: byField(boxes) };
}

function byField(boxes: Drawn['boxes']): Drawn['fields'] {
  const merged = new Map<number, Drawn['fields'][number]>();
  for (const b of boxes) {
    const seen = merged.get(b.at);
    if (!seen) merged.set(b.at, { ...b, box: { ...b.box } });
    else seen.box = unionBox(seen.box, b.box);
  }
  return [...merged.values()];
}

const ink = (image: GreyImage): Uint8Array => image.grey.map((g) => (g < 128 ? 1 : 0));

/** Ink grown by one pixel in all eight directions (the metric's tolerance). */
function near(mask: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(mask.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!mask[y * width + x]) continue;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx,
            ny = y + dy;
          if (nx >= 0 && ny >= 0 && nx < width && ny < height) out[ny * width + nx] = 1;
        }
    }
  }
  return out;
}

/** Per pixel of the target image, the index (+1) of the last field whose box, scaled and grown by `margin`, holds it. */
function owners(
  boxes: readonly { box: Box }[],
  scale: number,
  width: number,
  height: number,
  margin: number,
): Uint16Array {
  const owner = new Uint16Array(width * height);
  boxes.forEach(({ box }, i) => {
    const x0 = Math.max(0, Math.floor(box.x * scale - margin)),
      y0 = Math.max(0, Math.floor(box.y * scale - margin));
    const x1 = Math.min(width, Math.ceil((box.x + box.width) * scale + margin)),
      y1 = Math.min(height, Math.ceil((box.y + box.height) * scale + margin));
    for (let y = y0; y < y1; y++) owner.fill(i + 1, y * width + x0, y * width + Math.max(x0, x1));
  });
  return owner;
}

/** Where ink F1 is lost: per field kind, reference ink with no rendered ink near (missed) and the reverse (extra). */
export interface KindLoss {
  kind: string;
  refInk: number;
  missed: number;
  gotInk: number;
  extra: number;
}

function lossByKind(
  reference: GreyImage,
  result: GreyImage,
  original: Drawn,
  converted: Drawn,
  scale: number,
): KindLoss[] {
  const { width, height } = result;
  const ref = ink(reference),
    got = ink(result);
  const refNear = near(ref, width, height),
    gotNear = near(got, width, height);
  const refOwner = owners(original.boxes, scale, width, height, 2);
  const gotOwner = owners(converted.boxes, 1, width, height, 2);
  const byKind = new Map<string, KindLoss>();
  const entry = (kind: string): KindLoss =>
    byKind.get(kind) ?? byKind.set(kind, { kind, refInk: 0, missed: 0, gotInk: 0, extra: 0 }).get(kind)!;
  for (let i = 0; i < ref.length; i++) {
    if (ref[i]) {
      const e = entry(refOwner[i] ? original.boxes[refOwner[i]! - 1]!.kind : '(none)');
      e.refInk++;
      if (!gotNear[i]) e.missed++;
    }
    if (got[i]) {
      const e = entry(gotOwner[i] ? converted.boxes[gotOwner[i]! - 1]!.kind : '(none)');
      e.gotInk++;
      if (!refNear[i]) e.extra++;
    }
  }
  return [...byKind.values()].sort((a, b) => b.missed + b.extra - a.missed - a.extra);
}

/** Both images with every barcode field (in either) painted white: the F1 of what is not a barcode. */
function withoutBarcodes(
  reference: GreyImage,
  result: GreyImage,
  original: Drawn,
  converted: Drawn,
  scale: number,
): number {
  const { width, height } = result;
  const isBarcode = (k: string): boolean => /^B/.test(k);
  const a = owners(original.boxes, scale, width, height, 2),
    b = owners(converted.boxes, 1, width, height, 2);
  const ref = Uint8Array.from(reference.grey),
    got = Uint8Array.from(result.grey);
  for (let i = 0; i < ref.length; i++) {
    if ((a[i] && isBarcode(original.boxes[a[i]! - 1]!.kind)) || (b[i] && isBarcode(converted.boxes[b[i]! - 1]!.kind)))
      ref[i] = got[i] = 255;
  }
  return scoreInk({ width, height, grey: ref }, { width, height, grey: got }).f1;
}

const scaledBox = (b: Box, s: number): Box => ({ x: b.x * s, y: b.y * s, width: b.width * s, height: b.height * s });

const outside = (b: Box, w: number, h: number): boolean =>
  b.x < -0.5 || b.y < -0.5 || b.x + b.width > w + 0.5 || b.y + b.height > h + 0.5;

export interface ScoreOptions {
  /** Write `<id>-<target>.png` here: black ink in both, red only in the scaled original, blue only in the converted. */
  diffDir?: string;
  /** Compute the loss per field kind. */
  breakdown?: boolean;
  /** X-Lossy-Fields for the conversion (default round). */
  lossyFields?: LossyFields;
}

export async function densityScore(
  c: CorpusCase,
  zpl: Uint8Array,
  target: Dpmm,
  options: ScoreOptions = {},
): Promise<DensityScore> {
  const converted = await render(zpl, {
    dpmm: c.dpmm,
    widthIn: c.widthIn,
    heightIn: c.heightIn,
    format: 'zpl',
    targetDpmm: target,
    ...(options.lossyFields && { lossyFields: options.lossyFields }),
  });
  const original = await drawn(zpl, c.dpmm, c);
  const result = await drawn(converted.body, target, c);
  // By the conversion's own scale (dots per inch), onto the converted label's canvas.
  const reference = scaleInk(
    original.image,
    dotsPerInch(target) / dotsPerInch(c.dpmm),
    result.image.width,
    result.image.height,
  );
  let barcodes = 0,
    sameText = 0,
    unreadableScaled = 0,
    fellOff = 0,
    fellOffNoticed = 0;
  const toTarget = result.image.width / original.image.width;
  const noticed = new Set((converted.notices ?? []).map((n) => n.byteIndex));
  const scale = target / c.dpmm;
  const count = Math.min(original.fields.length, result.fields.length);
  for (let i = 0; i < count; i++) {
    const a = original.fields[i]!,
      b = result.fields[i]!;
    if (
      outside(b.box, result.image.width, result.image.height) &&
      !outside(a.box, original.image.width, original.image.height)
    ) {
      if (noticed.has(a.at)) fellOffNoticed++;
      else fellOff++;
    }
    const format = ZXING_FORMAT[a.kind];
    // A barcode drawn as a bitmap (X-Lossy-Fields: bitmap) is read from its picture.
    if (format === undefined || (a.kind !== b.kind && b.kind !== 'GF')) continue;
    const text = decode(crop(original.image, a.box, 40), format);
    if (text === undefined) continue;
    barcodes++;
    const got = decode(crop(result.image, b.box, 40 * scale), format);
    if (got === text) sameText++;
    // The original's own picture, scaled to the target, does not read either: the label damages it (text over a QR).
    else if (decode(crop(reference, scaledBox(a.box, toTarget), 40 * scale), format) !== text) unreadableScaled++;
    else if (process.env.DENSITY_DEBUG)
      console.log(`  ${a.kind} ${JSON.stringify(a.box)} -> ${JSON.stringify(b.box)}: ${text} / ${got}`);
  }
  fellOff += Math.abs(original.fields.length - result.fields.length); // a field lost or gained: counted as fallen off
  if (options.diffDir) {
    writeFileSync(
      `${options.diffDir}/${c.id.replace(/[^\w.-]+/g, '_')}-${target}.png`,
      await encodeRgbaPng(inkDiffRgba(reference, result.image)),
    );
  }
  return {
    id: c.id,
    target,
    f1: scoreInk(reference, result.image).f1,
    f1Outside: withoutBarcodes(reference, result.image, original, result, toTarget),
    barcodes,
    sameText,
    unreadableScaled,
    fellOff,
    fellOffNoticed,
    notices: converted.notices?.length ?? 0,
    ...(options.breakdown && { loss: lossByKind(reference, result.image, original, result, toTarget) }),
  };
}

async function main(): Promise<void> {
  const arg = (name: string): string | undefined => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const only = arg('only');
  const targets = (arg('targets') ?? '12,24,6').split(',').map(Number) as Dpmm[];
  const diffDir = arg('diff');
  const breakdown = process.argv.includes('--breakdown');
  const lossyFields = arg('lossy-fields') as LossyFields | undefined;
  const corpus = loadCorpus();
  const cases = corpus.cases.filter((c) => c.group === 'carrier' && c.dpmm === 8 && (!only || c.id.includes(only)));
  for (const target of targets) {
    const scores: DensityScore[] = [];
    for (const c of cases) {
      const s = await densityScore(c, new Uint8Array(readCorpusFile(corpus, c.zpl)), target, {
        ...(diffDir && { diffDir }),
        breakdown,
        ...(lossyFields && { lossyFields }),
      });
      scores.push(s);
      console.log(
        `${c.id} 8->${target}: F1 ${s.f1.toFixed(4)} (${s.f1Outside.toFixed(4)} outside barcodes), barcodes ${s.sameText}/${s.barcodes}${s.unreadableScaled ? ` (${s.unreadableScaled} unreadable scaled)` : ''}, fell off ${s.fellOff} (+${s.fellOffNoticed} with a notice), notices ${s.notices}`,
      );
      for (const l of s.loss ?? []) {
        if (l.missed + l.extra)
          console.log(`  ${l.kind}: missed ${l.missed}/${l.refInk}, extra ${l.extra}/${l.gotInk}`);
      }
    }
    const f1s = scores.map((s) => s.f1).sort((a, b) => a - b);
    console.log(
      `8->${target}: ${scores.length} labels, F1 min ${f1s[0]?.toFixed(4)} median ${f1s[f1s.length >> 1]?.toFixed(4)}, ` +
        `outside barcodes median ${scores
          .map((s) => s.f1Outside)
          .sort((a, b) => a - b)
          [scores.length >> 1]?.toFixed(4)}, ` +
        `barcodes ${scores.reduce((n, s) => n + s.sameText, 0)}/${scores.reduce((n, s) => n + s.barcodes, 0)} ` +
        `(${scores.reduce((n, s) => n + s.unreadableScaled, 0)} more unreadable in the original scaled), fell off ${scores.reduce((n, s) => n + s.fellOff, 0)} ` +
        `(+${scores.reduce((n, s) => n + s.fellOffNoticed, 0)} with a notice), F1 >= 0.95: ${scores.filter((s) => s.f1 >= 0.95).length}, ` +
        `without notices ${scores.filter((s) => s.notices === 0).length} (F1 min ${Math.min(...scores.filter((s) => s.notices === 0).map((s) => s.f1)).toFixed(4)})`,
    );
  }
}

if (process.argv[1]?.endsWith('density-fidelity.js')) await main();
