// Every dots and module value of a split command rewritten where it changes at the target density: dots scaled
// (a box's far edge and a font 0 baseline kept where they fall), module widths kept whole, device font sizes by
// magnification, values pushed outside their range clamped and reported.

import type { CommandDef } from '../../commands/context.js';
import type { Token } from '../../zpl/lexer.js';
import { parseFloatLoose } from '../../zpl/params.js';
import type { Conversion } from './conversion.js';
import { partStart, replacePart, splitParts } from './edits.js';
import type { FontSizing } from './fonts.js';
import { fillQrMagnification, scaleModule } from './modules.js';
import type { Placement, Written } from './placement.js';
import { formatNumber } from './scale.js';

export interface ParamContext extends Pick<Conversion, 'scale' | 'edits' | 'losses'> {
  fonts: FontSizing;
  placement: Placement;
}

export function scaleParams(ctx: ParamContext, tok: Token, key: string, def: CommandDef): void {
  const { scale, edits, losses, placement } = ctx;
  const specs = def.params ?? [];
  const syntax = def.syntax ?? 'split';
  if (syntax === 'raw' || syntax === 'text' || !specs.some((s) => s.measure === 'dots' || s.measure === 'module'))
    return;
  if ((key === '^A' || key === '^CF') && ctx.fonts.sizeDeviceFont(tok, key, edits)) return;
  // ^A: the font letter is the first parameter, written without a delimiter after it.
  const skip = syntax === 'font' ? 1 : 0;
  const parts = splitParts(tok, skip);
  const written: Written = {};
  specs.forEach((spec, i) => {
    const part = parts[i - skip];
    if (spec.measure !== 'dots' && spec.measure !== 'module') return;
    if (!part || part.text.trim() === '') {
      if (key === '^BQ' && spec.name === 'magnification') fillQrMagnification(ctx, tok, parts, i, skip);
      return;
    }
    const value = parseFloatLoose(part.text.trim().replace(/^[^\d+\-.]+/, ''));
    if (value === undefined) return;
    let next: number;
    if (spec.measure === 'module') {
      next = scaleModule(ctx, tok, key, spec, i, part, value);
    } else {
      next =
        placement.edgeKept(key, spec.name, value) ??
        placement.baselineKept(tok, key, spec.name, value) ??
        Math.round(value * scale.dots);
      if (value > 0 && next === 0) next = 1;
    }
    const max = spec.max ?? Infinity,
      min = spec.min ?? -Infinity;
    if (next > max || next < min) {
      const clamped = Math.min(max, Math.max(min, next));
      const message = `${formatNumber(value)} becomes ${next} at ${scale.to} dpmm, outside ${min}..${max}; written ${clamped}`;
      losses.warn(partStart(tok, part), part.b - part.a, key, i + 1, message);
      if (spec.measure === 'module') losses.lossy(partStart(tok, part));
      if (key === '^BY' && spec.measure === 'module') losses.moduleLoss = message;
      next = clamped;
    }
    if (next !== value || part.text.trim() !== String(value)) edits.push(replacePart(tok, part, String(next)));
    written[spec.name] = { from: value, to: next };
  });
  placement.follow(key, written, tok);
}
