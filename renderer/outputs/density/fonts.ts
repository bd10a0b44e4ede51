// Font sizes at another density: device fonts (A-H, GS) print at whole multiples of their cell, so ^A and ^CF are
// rewritten by magnification, never by plain scaling; a text field whose scaled size is not whole cells says so.

import { deviceFonts, deviceMagnification } from '../../fonts/device-fonts.js';
import type { DocumentPlan } from '../../interpreter.js';
import type { Token } from '../../zpl/lexer.js';
import { parseFloatLoose } from '../../zpl/params.js';
import { partEnd, splitParts, type Edit } from './edits.js';
import type { LossReport } from './losses.js';
import { formatNumber, type DensityScale } from './scale.js';

/** The printer's ^CF at power-up (the interpreter starts from the same values). */
export const CF_DEFAULTS = { name: 'A', height: 9, width: 5 };

export class FontSizing {
  /** ^CF in force, as written in the source (^A without a height takes ^CF's). */
  private defaultFont = { ...CF_DEFAULTS };

  constructor(private readonly scale: DensityScale) {}

  /**
   * The size written for a device font the source asks at `height` x `width` dots (0: follows the other, or one
   * cell when both are): the magnification it prints at, scaled and kept whole (half a cell rounds down: a field
   * never grows past its place), written as whole cells so the printer picks exactly that magnification.
   */
  deviceFontSize(name: string, height: number, width: number): { height: number; width: number } {
    const font = deviceFonts[name]!;
    const { mx, my } = deviceMagnification(font, height, width);
    const pick = (m: number): number => Math.max(1, Math.round(m * this.scale.dots - 1e-9));
    const both = height <= 0 && width <= 0;
    return {
      height: height > 0 || both ? pick(my) * font.cellHeight : 0,
      width: width > 0 || both ? pick(mx) * font.width : 0,
    };
  }

  /**
   * ^A and ^CF in a device font: the size rewritten by magnification (deviceFontSize) into `edits`; false for a font
   * that is not a device font (scaled as any other dots).
   */
  sizeDeviceFont(tok: Token, key: string, edits: Edit[]): boolean {
    const font = key === '^A';
    const parts = splitParts(tok, font ? 1 : 0);
    const name = font
      ? tok.raw.length
        ? String.fromCharCode(tok.raw[0]!).toUpperCase()
        : ''
      : (parts[0]?.text.trim().toUpperCase().slice(0, 1) ?? '');
    const number = (k: number): number | undefined => {
      const t = parts[k]?.text.trim() ?? '';
      return t === '' ? undefined : parseFloatLoose(t);
    };
    const h = number(1),
      w = number(2);
    if (!font) {
      // ^CF: a font without a size keeps the size in force; the source's is remembered for the ^A that lean on it.
      const d = this.defaultFont;
      this.defaultFont = { name: name || d.name, height: h ?? d.height, width: w ?? (h !== undefined ? 0 : d.width) };
      if (h === undefined && w === undefined) return true;
    }
    if (!deviceFonts[name]) return false;
    const height = h ?? (font && name === this.defaultFont.name ? this.defaultFont.height : 0);
    const size = this.deviceFontSize(name, height, w ?? 0);
    const delimiter = String.fromCharCode(tok.delimiter);
    const start = font ? tok.paramStart + 1 : parts[0] ? partEnd(tok, parts[0]) : tok.paramStart;
    const end = parts.length ? partEnd(tok, parts.at(-1)!) : start;
    const lead = font ? [parts[0]?.text ?? ''] : [''];
    const written = [...lead, String(size.height), String(size.width), ...parts.slice(3).map((p) => p.text)].join(
      delimiter,
    );
    edits.push({ start, end, text: written });
    return true;
  }

  /**
   * Device fonts (A-H, GS) grow by whole multiples of their cell: a text field whose scaled size is not one prints at
   * another size, and says so.
   */
  checkFonts(plan: DocumentPlan, losses: LossReport): void {
    const seen = new Set<number>();
    for (const label of plan.labels) {
      for (const field of label.fields) {
        if (field.kind !== 'text' || field.data === undefined || seen.has(field.at)) continue;
        const font = deviceFonts[field.font.name];
        if (!font || field.font.path) continue;
        seen.add(field.at);
        const { mx, my } = deviceMagnification(font, field.font.height, field.font.width);
        const wantY = my * font.cellHeight * this.scale.dots,
          wantX = mx * font.width * this.scale.dots;
        const written = this.deviceFontSize(field.font.name, field.font.height, field.font.width);
        const got = deviceMagnification(font, written.height, written.width);
        const gotY = got.my * font.cellHeight,
          gotX = got.mx * font.width;
        if (Math.abs(gotY - wantY) < 0.5 && Math.abs(gotX - wantX) < 0.5) continue;
        losses.lossy(field.at);
        losses.warn(
          field.at,
          0,
          '^A',
          0,
          `Font ${field.font.name} (cell ${font.cellHeight}x${font.width} dots) grows by whole cells: ` +
            `${formatNumber(wantY)}x${formatNumber(wantX)} dots at ${this.scale.to} dpmm print as ${gotY}x${gotX}`,
        );
      }
    }
  }
}
