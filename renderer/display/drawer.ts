// The drawer contract: a drawer gets one finished field of its kind, what it knows about the label, and the canvas
// it records display-list elements on.

import type { DiagnosticLog } from '../diagnostics.js';
import type { Field, FieldKind, FieldOf, FontSelection, StoredObject, UndrawnKind } from '../model.js';
import type { Canvas } from './canvas.js';

/**
 * What one field leaves behind for the next ones while a label is laid out (zebrash's DrawerState): one per label
 * copy, read and moved on by the drawers through these methods only.
 */
export class LayoutState {
  /**
   * Where the last single-line text field (or ^GS symbol) ended, its pen on the baseline, or the far corner of the
   * last ^GB: ^FT without coordinates continues there.
   */
  private penEnd?: { x: number; y: number };
  /** The font of the last text field: ^GS without a size takes it (the legacy renderer does). */
  private lastFont?: FontSelection;

  /** Where a field starts: its own origin, or for ^FT without coordinates where the previous field ended. */
  startOf(field: Pick<Field, 'x' | 'y' | 'continues'>): { x: number; y: number } {
    return (field.continues && this.penEnd) || { x: field.x, y: field.y };
  }

  /** The next ^FT without coordinates continues at (x, y). */
  endAt(x: number, y: number): void {
    this.penEnd = { x, y };
  }

  /** A text field was drawn in `font`. */
  textFont(font: FontSelection): void {
    this.lastFont = font;
  }

  /** The font of the last text field, if any. */
  lastTextFont(): FontSelection | undefined {
    return this.lastFont;
  }
}

/** What a drawer knows about the label it draws on. */
export interface DrawEnv {
  dpmm: number;
  widthDots: number;
  heightDots: number;
  log?: DiagnosticLog;
  /** Stored objects (~DG, ~DY, ~DU...) of this request, by normalised name (`R:LOGO.GRF`). */
  objects: ReadonlyMap<string, StoredObject>;
  /** The copy being drawn (0-based), for ^SN serialisation. */
  copy: number;
  /** State carried from field to field within this label. */
  state: LayoutState;
}

/** Draws one finished field of kind K on the canvas (a field that fails throws; the layout drops what it drew). */
export type Drawer<K extends FieldKind = FieldKind> = (field: FieldOf<K>, env: DrawEnv, canvas: Canvas) => void;

/** One drawer for each kind in K, except those field-kinds.ts marks `undrawn` (they have none). */
export type DrawerTable<K extends FieldKind> = { readonly [P in Exclude<K, UndrawnKind>]: Drawer<P> };
