// What the parts of one density conversion share: the source document, the scale, the edits made so far and what
// was lost; and what the caller may give it (the label size, memory and checkpoint hooks, field bitmaps).

import type { DecodeMeter } from '../../decode/meter.js';
import type { Field } from '../../model.js';
import type { PlacedBits } from '../field-bitmap.js';
import type { Edit } from './edits.js';
import type { LossReport } from './losses.js';
import type { DensityScale } from './scale.js';

/** The label size in inches, when known: a box that ends on its edge at one density ends on it at the other. */
export interface LabelSize {
  widthIn: number;
  heightIn: number;
}

/** What converting may ask of its caller: memory for resampled bitmaps (claimed before allocating), a checkpoint. */
export interface ConversionHooks {
  claim?: (bytes: number, what: string) => void;
  checkpoint?: () => void;
  /** The request's meter: resampling charges its rows here (claims and checkpoints go through the hooks above). */
  meter?: DecodeMeter;
  /** Pixels one bitmap may have at the target (the request's maxPixels): more is a `too-large` error before resampling. */
  maxPixels?: number;
  /**
   * X-Lossy-Fields: bitmap. A field's drawing at the source density scaled to the target (label dots, ^PW's shift
   * included): given, fields with no whole-dot form are written as ^GF graphics of it instead of rounded.
   */
  fieldBitmap?: (field: Field) => PlacedBits | undefined;
}

export interface Conversion {
  /** The source document, as sent. */
  readonly bytes: Uint8Array;
  readonly scale: DensityScale;
  readonly label: LabelSize | undefined;
  readonly hooks: ConversionHooks;
  readonly edits: Edit[];
  readonly losses: LossReport;
}
