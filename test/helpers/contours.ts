// Test polygons for the rasterizers and the glyph parts (x0, y0, x1, y1, ... in dots, y down).

/** An axis-aligned rectangle, clockwise on the page, or the other way round (a hole under non-zero winding). */
export const square = (x0: number, y0: number, x1: number, y1: number, clockwise = true): number[] =>
  clockwise ? [x0, y0, x1, y0, x1, y1, x0, y1] : [x0, y0, x0, y1, x1, y1, x1, y0];

/** A five-pointed star whose edges cross pixels at every slope, in a 10-dot square. */
export const STAR: readonly number[] = [
  5, 0.3, 6.2, 3.8, 9.9, 3.9, 7, 6.1, 8.1, 9.7, 5, 7.6, 1.9, 9.7, 3, 6.1, 0.1, 3.9, 3.8, 3.8,
];
