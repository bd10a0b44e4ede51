// What a request will cost, read from the request and a scan of its bytes before any work: the label's pixels, the
// bitmaps its graphic commands declare (at the target density when converting), and whether the answer holds every
// label. The render pool refuses a request its estimate puts over a budget before it takes a thread, and gives the
// express thread only what the estimate calls small.

import { DEFAULT_MAX_PIXELS, dotsPerInch, drawsEveryLabel, labelDots, type Dpmm, type RenderRequest } from './api.js';
import { RenderError } from './errors.js';

/** Labels up to this many pixels (4x6 in at 12 dpmm is 2.2 million), one at a time, may use the express threads. */
export const EXPRESS_MAX_PIXELS = 3_000_000;
/**
 * ...and documents of up to this many bytes (carrier labels are 2-10 KB): 1 MiB of QR codes on a 4x6 label takes
 * seconds, and in the express lane it kept small labels of other keys waiting for a worker.
 */
export const EXPRESS_MAX_BYTES = 32 * 1024;

/** One graphic a command declares (^GF, ~DG, ~DY): its size in dots at the density it is drawn or converted to. */
export interface DeclaredGraphic {
  command: string;
  width: number;
  height: number;
}

export interface CostEstimate {
  /** One label's pixels at the request's density. */
  labelPixels: number;
  /** Every graphic the document declares, sized at the target density when converting. */
  graphics: DeclaredGraphic[];
  /** The sum of their pixels: what decoding (and resampling) them walks through. */
  graphicPixels: number;
  /** A density conversion: `graphics` are sized at the target. */
  converting: boolean;
  /** The answer holds every label (a PDF or print job without an index). */
  everyLabel: boolean;
  /** Work the express thread may take: one small label, small graphics, a small document. */
  small: boolean;
}

type EstimateRequest = Pick<RenderRequest, 'dpmm' | 'widthIn' | 'heightIn' | 'format' | 'index' | 'targetDpmm'> &
  Partial<Pick<RenderRequest, 'lossyFields'>>;

/** The estimate of `zpl` under `req`; the bytes are scanned only up to `scanLimit` (the rest counts as not small). */
export function estimateCost(
  zpl: Uint8Array | string,
  req: EstimateRequest,
  scanLimit = EXPRESS_MAX_BYTES,
): CostEstimate {
  const labelPixels = labelDots(req.widthIn, req.dpmm) * labelDots(req.heightIn, req.dpmm);
  const converting = req.format === 'zpl' && req.targetDpmm !== undefined;
  const scale = converting ? dotsPerInch(req.targetDpmm as Dpmm) / dotsPerInch(req.dpmm) : 1;
  const scanned = zpl.length <= scanLimit;
  const graphics = scanned ? declaredGraphics(zpl, scale) : [];
  const graphicPixels = graphics.reduce((s, g) => s + g.width * g.height, 0);
  const everyLabel = drawsEveryLabel(req);
  const small =
    scanned &&
    !everyLabel &&
    labelPixels <= EXPRESS_MAX_PIXELS &&
    graphicPixels <= EXPRESS_MAX_PIXELS &&
    !(converting && req.lossyFields === 'bitmap'); // each field painted on a whole label of its own
  return { labelPixels, graphics, graphicPixels, converting, everyLabel, small };
}

/**
 * Refuses, before any work, a conversion whose declared graphic would be larger at the target than a label may be
 * (the same answer resampling it gives): 2.6 KB of Z64 declaring 2 MB at 6 dpmm is 256 M pixels at 24.
 */
export function checkEstimate(estimate: CostEstimate, req: Pick<RenderRequest, 'maxPixels' | 'targetDpmm'>): void {
  if (!estimate.converting || req.targetDpmm === undefined) return;
  const maxPixels = req.maxPixels ?? DEFAULT_MAX_PIXELS;
  for (const g of estimate.graphics) {
    if (g.width * g.height > maxPixels) throw tooLargeAtTarget(g.command, req.targetDpmm, g.width, g.height, maxPixels);
  }
}

/** The error for a bitmap too large at the target density (the estimate's and the resampler's). */
export function tooLargeAtTarget(
  what: string,
  to: Dpmm,
  width: number,
  height: number,
  maxPixels: number,
): RenderError {
  return new RenderError(
    'too-large',
    `${what} resampled to ${to} dpmm would be ${width}x${height} dots, over the limit of ${maxPixels} pixels`,
  );
}

const CARET = 0x5e;
const TILDE = 0x7e;
const COMMA = 0x2c;

/** Which parameter (0-based) holds the byte count and which the row width, per graphic command. */
const GRAPHIC_PARAMS: Record<string, { total: number; row: number }> = {
  '^GF': { total: 2, row: 3 },
  '~DG': { total: 1, row: 2 },
  '~DY': { total: 3, row: 4 },
};

/** The graphics `zpl` declares (by their headers, as the decoder sizes them), scaled by `scale`. */
function declaredGraphics(zpl: Uint8Array | string, scale: number): DeclaredGraphic[] {
  const at = typeof zpl === 'string' ? (i: number) => zpl.charCodeAt(i) : (i: number) => zpl[i]!;
  const out: DeclaredGraphic[] = [];
  for (let i = 0; i + 2 < zpl.length; i++) {
    const c = at(i);
    if (c !== CARET && c !== TILDE) continue;
    const command = String.fromCharCode(c === CARET ? CARET : TILDE, at(i + 1) & ~0x20, at(i + 2) & ~0x20);
    const params = GRAPHIC_PARAMS[command];
    if (!params) continue;
    const values = readInts(at, i + 3, zpl.length, Math.max(params.total, params.row) + 1);
    const total = values[params.total] ?? (command === '^GF' ? values[1] : undefined);
    const rowBytes = values[params.row];
    if (total === undefined || rowBytes === undefined || rowBytes < 1 || total < 0) continue;
    const height = Math.ceil(total / rowBytes);
    const width = rowBytes * 8;
    out.push({
      command,
      width: Math.max(1, Math.round(width * scale)),
      height: Math.max(1, Math.round(height * scale)),
    });
  }
  return out;
}

/** The first `count` comma-separated parameters from `from` as whole numbers (undefined where not one). */
function readInts(at: (i: number) => number, from: number, end: number, count: number): (number | undefined)[] {
  const values: (number | undefined)[] = [];
  let value: number | undefined;
  let whole = true;
  for (let i = from; i <= end && values.length < count; i++) {
    const c = i < end ? at(i) : CARET;
    if (c === COMMA || c === CARET || c === TILDE) {
      values.push(whole ? value : undefined);
      value = undefined;
      whole = true;
      if (c !== COMMA) break;
    } else if (c >= 0x30 && c <= 0x39) value = (value ?? 0) * 10 + (c - 0x30);
    else if (c !== 0x20) whole = false;
  }
  return values;
}
