// Bitmaps in the document at another density: ^GF fields and ~DG/~DY stored graphics resampled and written as Z64,
// their byte counts and row widths with them; other stored objects kept as sent, and reported.

import { payloadAfter } from '../../commands/payload.js';
import { decodeGraphic } from '../../decode/grf.js';
import { decodeMeter } from '../../decode/meter.js';
import { DEFAULT_MAX_PIXELS } from '../../api.js';
import { tooLargeAtTarget } from '../../cost-estimate.js';
import type { Bits } from '../../model.js';
import type { Token } from '../../zpl/lexer.js';
import { latin1 } from '../../zpl/params.js';
import { encodeBits, resample } from './bitmap.js';
import type { Conversion } from './conversion.js';
import { dataEnd, intOf, splitParts } from './edits.js';

type GraphicContext = Pick<Conversion, 'bytes' | 'scale' | 'hooks' | 'edits' | 'losses'>;

/** What decoding a source graphic spends: its bitmap claimed, its work checked. */
const meterOf = (ctx: GraphicContext) => ctx.hooks.meter ?? decodeMeter(ctx.hooks.claim, ctx.hooks.checkpoint);

/** ^GFa,b,c,d,data: the bitmap resampled, written as Z64 (ASCII), the byte counts and row width with it. */
export function resampleGraphicField(ctx: GraphicContext, tok: Token): void {
  const parts = splitParts(tok, 0, 5);
  const format = parts[0]?.text.trim().toUpperCase() || 'A';
  const total = intOf(parts[2]) ?? intOf(parts[1]);
  const rowBytes = intOf(parts[3]);
  if (total === undefined || rowBytes === undefined || rowBytes < 1) {
    unsized(ctx, tok, '^GF');
    return;
  }
  const data = payloadAfter(tok, 4);
  const spec = { totalBytes: total, rowBytes, binary: format === 'B' || format === 'C', what: '^GF graphic' };
  const bits = decodeGraphic(data.bytes, spec, meterOf(ctx));
  const out = encodeBits(resampled(ctx, bits, '^GF'));
  const binary = format === 'B' || format === 'C';
  ctx.edits.push({
    start: tok.paramStart,
    end: binary ? tok.end : dataEnd(ctx.bytes, tok),
    text: `A,${out.total},${out.total},${out.rowBytes},${out.data}`,
  });
}

/** ~DGname,t,w,data: the stored graphic resampled (^XG and ^IM draw it at the new density). */
export function resampleDownload(ctx: GraphicContext, tok: Token): void {
  const parts = splitParts(tok, 0, 4);
  const total = intOf(parts[1]);
  const rowBytes = intOf(parts[2]);
  if (!parts[0] || total === undefined || rowBytes === undefined || rowBytes < 1) {
    unsized(ctx, tok, '~DG');
    return;
  }
  const spec = { totalBytes: total, rowBytes, binary: false, what: '~DG graphic' };
  const bits = decodeGraphic(payloadAfter(tok, 3).bytes, spec, meterOf(ctx));
  const out = encodeBits(resampled(ctx, bits, '~DG'));
  const name = latin1(tok.raw, parts[0].a, parts[0].b);
  ctx.edits.push({
    start: tok.paramStart,
    end: dataEnd(ctx.bytes, tok),
    text: `${name},${out.total},${out.rowBytes},${out.data}`,
  });
}

/** ~DY of a GRF graphic (extension G): a bitmap, resampled; PNG, fonts and other files are not. */
export function isGrf(tok: Token): boolean {
  return (splitParts(tok, 0, 4)[2]?.text.trim().toUpperCase() ?? 'G') === 'G';
}

/** ~DYname,f,G,t,w,data: a stored GRF graphic resampled like ~DG (other object types are kept, and reported). */
export function resampleObject(ctx: GraphicContext, tok: Token): void {
  const parts = splitParts(tok, 0, 6);
  const format = parts[1]?.text.trim().toUpperCase() || 'A';
  const total = intOf(parts[3]);
  const rowBytes = intOf(parts[4]);
  if (!parts[0] || total === undefined || rowBytes === undefined || rowBytes < 1) {
    unsized(ctx, tok, '~DY');
    return;
  }
  const binary = format === 'B' || format === 'C';
  const spec = { totalBytes: total, rowBytes, binary, what: '~DY graphic' };
  const bits = decodeGraphic(payloadAfter(tok, 5).bytes, spec, meterOf(ctx));
  const out = encodeBits(resampled(ctx, bits, '~DY'));
  const name = latin1(tok.raw, parts[0].a, parts[0].b);
  const extension = latin1(tok.raw, parts[2]!.a, parts[2]!.b);
  ctx.edits.push({
    start: tok.paramStart,
    end: binary ? tok.end : dataEnd(ctx.bytes, tok),
    text: `${name},A,${extension},${out.total},${out.rowBytes},${out.data}`,
  });
}

/** A stored object that is not a bitmap (~DY of another type, ~DU, ~DT, ~DB): kept as sent. */
export function warnObject(ctx: Pick<Conversion, 'scale' | 'losses'>, tok: Token, key: string): void {
  ctx.losses.warn(
    tok.start,
    tok.end - tok.start,
    key,
    0,
    `Stored object kept as sent: images and fonts in it are not resampled to ${ctx.scale.to} dpmm`,
  );
}

function unsized(ctx: GraphicContext, tok: Token, key: string): void {
  ctx.losses.warn(
    tok.start,
    tok.end - tok.start,
    key,
    0,
    `Graphic without a byte count or row width: not resampled to ${ctx.scale.to} dpmm`,
  );
}

/**
 * A bitmap at the target density: its size known before any work (a logo grows 16 times from 6 to 24 dpmm), refused
 * past the pixels a label may have, its bytes claimed and its rows charged as they are resampled.
 */
function resampled(ctx: GraphicContext, bits: Bits, what: string): Bits {
  const scale = ctx.scale.dots;
  const width = Math.max(1, Math.round(bits.width * scale)),
    height = Math.max(1, Math.round(bits.height * scale));
  const maxPixels = ctx.hooks.maxPixels ?? DEFAULT_MAX_PIXELS;
  if (width * height > maxPixels) throw tooLargeAtTarget(what, ctx.scale.to, width, height, maxPixels);
  const name = `${what} resampled to ${width}x${height} dots`;
  ctx.hooks.claim?.(Math.ceil(width / 8) * height, name); // its encoded form; resample claims its bits
  ctx.hooks.checkpoint?.();
  return resample(bits, scale, meterOf(ctx), name);
}
