// Placeholder until measure/measure-font0.ts generates the measured table.

/** [advance, inkLeft, inkRight, inkTop, inkBottom] in units of the font height; y up from the baseline. */
export type GlyphBox = readonly [number, number, number, number, number];

export interface Font0Metrics {
  /** baseline below the cell top = a * h + b */
  baseline: readonly [number, number];
  /** Em size per dot of height, and the horizontal squeeze, for glyphs the table lacks. */
  emPerHeight: number;
  condense: number;
  glyphs: Readonly<Record<number, GlyphBox>>;
}

export const font0Metrics: Font0Metrics = {
  baseline: [0.74, 0],
  emPerHeight: 1.04,
  condense: 0.87,
  glyphs: {},
};
