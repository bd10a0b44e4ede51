// Where fields stand at the target: label home, shifts and the last ^FO as the source writes them and as they are
// written, so a box that ends on the label's edge still does and a font 0 line keeps its baseline; and the home and
// shifts in force at each ^FO and ^FT, for a field drawn as a bitmap.

import { font0Baseline } from '../../fonts/font0.js';
import { labelDots } from '../../layout/dots.js';
import type { Field } from '../../model.js';
import type { Token } from '../../zpl/lexer.js';
import type { LabelSize } from './conversion.js';
import type { DensityScale } from './scale.js';

/** A parameter's value as the source writes it and as it is written at the target. */
export type Written = Record<string, { from: number; to: number }>;

/** Label home and shifts as written at the target, where a field's ^FO or ^FT stands. */
export interface Placing {
  home: { x: number; y: number };
  shiftLeft: number;
  shiftTop: number;
}

interface Point {
  x: number;
  y: number;
}

export class Placement {
  /** At each ^FO and ^FT (by its offset): a field drawn as a bitmap restores them. */
  readonly placing = new Map<number, Placing>();
  private shifts = { left: 0, top: 0 };
  /** Label home and the last ^FO, as the source writes them and as they are written (for edgeKept). */
  private home: { from: Point; to: Point } = { from: { x: 0, y: 0 }, to: { x: 0, y: 0 } };
  private origin: { from: Point; to: Point } | undefined;

  /** `textFields`: the document's text fields (a ^FO is matched to the field it starts). */
  constructor(
    private readonly scale: DensityScale,
    private readonly label: LabelSize | undefined,
    private readonly textFields: readonly Field[],
  ) {}

  /** ^FS: the field's origin no longer applies. */
  endField(): void {
    this.origin = undefined;
  }

  /** ^LH, ^LS, ^LT, ^FO and ^FT as the source wrote them and as they were written. */
  follow(key: string, written: Written, tok: Token): void {
    const at = (name: string) => written[name] ?? { from: 0, to: 0 };
    if (key === '^LH') this.home = { from: { x: at('x').from, y: at('y').from }, to: { x: at('x').to, y: at('y').to } };
    if (key === '^LS') this.shifts.left = at('shift').to;
    if (key === '^LT') this.shifts.top = at('top').to;
    if (key === '^FO' || key === '^FT')
      this.placing.set(tok.start, {
        home: { ...this.home.to },
        shiftLeft: this.shifts.left,
        shiftTop: this.shifts.top,
      });
    if (key === '^FT') this.origin = undefined;
    if (key === '^FO') {
      const h = this.home;
      this.origin = {
        from: { x: h.from.x + at('x').from, y: h.from.y + at('y').from },
        to: { x: h.to.x + at('x').to, y: h.to.y + at('y').to },
      };
    }
  }

  /**
   * A box's width or height from its ^FO origin: its far edge scaled, less the origin as written, so a box that ends on
   * the label's edge still does (two roundings would put it a dot past).
   */
  edgeKept(key: string, name: string, value: number): number | undefined {
    if (key !== '^GB' || !this.origin || (name !== 'width' && name !== 'height')) return undefined;
    const axis = name === 'width' ? 'x' : 'y';
    const far = this.origin.from[axis] + value;
    let scaled = Math.round(far * this.scale.dots);
    // Label sizes become dots rounded down at each density: an edge on the label's stays on it.
    const inches = this.label && (axis === 'x' ? this.label.widthIn : this.label.heightIn);
    if (inches !== undefined && far <= labelDots(inches, this.scale.from))
      scaled = Math.min(scaled, labelDots(inches, this.scale.to));
    return scaled - this.origin.to[axis];
  }

  /**
   * A font 0 line's ^FO coordinate across its lines: the printer puts the baseline on a whole row below the cell top,
   * floor(0.75 x height), at each density, so the top scaled would move the ink by that rounding (2 dots at 8 -> 24 for
   * a 25-dot font). The baseline is kept instead: where it lies in the source, scaled, less the target's row.
   */
  baselineKept(tok: Token, key: string, name: string, value: number): number | undefined {
    if (key !== '^FO' || (name !== 'x' && name !== 'y')) return undefined;
    const field = this.textFields.find((f) => f.at <= tok.start && tok.start < f.end);
    if (field?.origin !== 'FO' || field.textBlock || field.direction || field.font.path || field.font.name !== '0')
      return undefined;
    const o = field.font.orientation;
    // The axis across the line: y for N and I, x for R and B; R and I measure from the cell's far side.
    if ((name === 'y') !== (o === 'N' || o === 'I')) return undefined;
    if ((o === 'R' || o === 'I') && field.block) return undefined;
    const h = field.font.height,
      ht = Math.max(1, Math.round(h * this.scale.dots));
    const from = o === 'N' || o === 'B' ? font0Baseline(h) : h - font0Baseline(h);
    const to = o === 'N' || o === 'B' ? font0Baseline(ht) : ht - font0Baseline(ht);
    const home = this.home.from[name],
      homeTo = this.home.to[name];
    return Math.round((home + value + from) * this.scale.dots) - to - homeTo;
  }
}
