// The printer's power-up defaults written out after the first ^XA, scaled: ^CF always, ^BY when there are barcodes,
// so fields that lean on them scale too.

import { isBarcodeKind } from '../../commands/field-kinds.js';
import type { Token } from '../../zpl/lexer.js';
import type { Conversion } from './conversion.js';
import { prefixOf, splitParts } from './edits.js';
import { CF_DEFAULTS, type FontSizing } from './fonts.js';

/** The printer's ^BY at power-up (the interpreter starts from the same values). */
const BY_DEFAULTS = { moduleWidth: 2, ratio: 3, height: 10 };

/** Whether the document has barcodes, and whether the first one comes before any ^BY that sets a module width. */
export interface BarcodeUse {
  defaultModule: boolean;
}

export function barcodeUse(tokens: readonly Token[]): BarcodeUse | undefined {
  const firstBarcode = tokens.findIndex((t) => t.prefix === '^' && isBarcodeKind(t.name));
  const firstModule = tokens.findIndex(
    (t) => t.prefix === '^' && t.name === 'BY' && (splitParts(t, 0)[0]?.text.trim() ?? '') !== '',
  );
  return firstBarcode >= 0 ? { defaultModule: firstModule < 0 || firstBarcode < firstModule } : undefined;
}

/**
 * ^CF (and ^BY, when there are barcodes) as the printer starts, scaled, right after the first ^XA: fields that lean
 * on the power-up defaults scale too.
 */
export function writePowerUpDefaults(
  ctx: Pick<Conversion, 'bytes' | 'scale' | 'edits' | 'losses'>,
  fonts: FontSizing,
  xa: Token,
  barcodes: BarcodeUse | undefined,
): void {
  const { scale, losses } = ctx;
  const prefix = prefixOf(ctx.bytes, xa, '^');
  const font = fonts.deviceFontSize(CF_DEFAULTS.name, CF_DEFAULTS.height, CF_DEFAULTS.width);
  let text = `${prefix}CF${CF_DEFAULTS.name},${font.height},${font.width}`;
  if (barcodes) {
    const module = scale.module(BY_DEFAULTS.moduleWidth);
    if (module.lossy)
      losses.moduleLoss = scale.moduleMessage(BY_DEFAULTS.moduleWidth, module.value, 'Default module width');
    if (module.lossy && barcodes.defaultModule)
      losses.warn(xa.start, xa.paramStart - xa.start, '^BY', 1, losses.moduleLoss!);
    text += `${prefix}BY${module.value},${BY_DEFAULTS.ratio},${Math.max(1, Math.round(BY_DEFAULTS.height * scale.dots))}`;
  }
  ctx.edits.push({ start: xa.paramStart, end: xa.paramStart, text });
}
