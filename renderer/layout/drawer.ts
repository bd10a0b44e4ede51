// What a field drawer gets and gives: the field, what it knows about the label, and elements that record
// themselves on the canvas.

import type { DiagnosticLog } from '../diagnostics.js';
import type { Field, FontSelection, StoredObject } from '../model.js';
import type { Canvas } from './canvas.js';

/** Something drawn on a label: it records display-list elements on the canvas. */
export interface LabelElement {
  draw(target: Canvas): void;
}

/** What one field leaves behind for the next ones while a label is laid out. */
export interface LayoutState {
  /** Where the last single-line text field (or ^GS symbol) ended, its pen on the baseline: ^FT without coordinates continues there. */
  penEnd?: { x: number; y: number };
  /** The font of the last text field: ^GS without a size takes it (the legacy renderer does). */
  lastFont?: FontSelection;
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

/** Turns one finished field into drawable elements. */
export type FieldRenderer = (field: Field, env: DrawEnv) => LabelElement[];

