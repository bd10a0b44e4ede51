// The numbers of a density conversion: dots scale by dots per inch, module widths by the nominal densities and are
// kept whole; how far a rounded module width lands from the exact one, said in one message.

import type { Dpmm } from '../../api.js';
import { dotsPerInch } from '../../layout/dots.js';

export class DensityScale {
  /** The factor for dots: by dots per inch, as label sizes (in inches) become dots, so what reaches an edge stays. */
  readonly dots: number;
  /** The factor for module widths: by the nominal densities (a 2-dot bar at 8 dpmm is 3 dots at 12, not 2.995). */
  readonly modules: number;

  constructor(
    readonly from: Dpmm,
    readonly to: Dpmm,
  ) {
    this.dots = dotsPerInch(to) / dotsPerInch(from);
    this.modules = to / from;
  }

  /**
   * A module width scaled and kept whole (at least 1); `lossy` when the exact value is not whole. Half a module
   * rounds down (the symbol never grows past its place), up for a QR code (`halfUp`): carrier labels print a text
   * line across theirs, and it takes fewer of the larger modules (two such codes read at 12 dpmm only so).
   */
  module(v: number, halfUp = false): { value: number; lossy: boolean } {
    const exact = v * this.modules;
    const value = Math.max(1, Math.round(exact + (halfUp ? 1e-9 : -1e-9)));
    return { value, lossy: Math.abs(value - exact) > 1e-9 };
  }

  moduleMessage(v: number, written: number, what: string): string {
    const exact = v * this.modules;
    const change = Math.round((written / exact - 1) * 100);
    return `${what} ${v} is ${formatNumber(exact)} dots at ${this.to} dpmm; written ${written}, the symbol is ${Math.abs(change)}% ${change > 0 ? 'larger' : 'smaller'}`;
  }
}

export function formatNumber(v: number): string {
  return String(Math.round(v * 100) / 100);
}
