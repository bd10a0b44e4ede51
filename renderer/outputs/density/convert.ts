// A ZPL document rewritten for another print density (the legacy service's X-Target-Dpmm): every number the parameter
// table marks as dots is scaled, module widths are scaled and kept whole, ^GF and ~DG bitmaps are resampled. Only the
// bytes of the values that change are rewritten (the lexer's offsets say where they stand); everything else is kept
// as sent. What cannot be converted faithfully is reported as a diagnostic, never changed silently; with
// X-Lossy-Fields: bitmap such a field is written as a ^GF picture of its source drawing instead (lossy-fields.ts).
// This module walks the document and hands each command to the part that rewrites it.

import type { Dpmm } from '../../api.js';
import { commandTable } from '../../commands/index.js';
import { decodeMeter } from '../../decode/meter.js';
import type { Diagnostic } from '../../diagnostics.js';
import type { DocumentPlan } from '../../interpreter.js';
import { lex, type Token } from '../../zpl/lexer.js';
import type { Conversion, ConversionHooks, LabelSize } from './conversion.js';
import { applyEdits, splitParts } from './edits.js';
import { FontSizing } from './fonts.js';
import { isGrf, resampleDownload, resampleGraphicField, resampleObject, warnObject } from './graphics.js';
import { drawLossyAsBitmaps } from './lossy-fields.js';
import { LossReport } from './losses.js';
import { followsLossyModule } from './modules.js';
import { scaleParams, type ParamContext } from './params.js';
import { Placement } from './placement.js';
import { barcodeUse, writePowerUpDefaults } from './power-up.js';
import { DensityScale } from './scale.js';

export type { ConversionHooks, LabelSize } from './conversion.js';

export interface DensityConversion {
  bytes: Uint8Array;
  /** What could not be converted faithfully, at its place in the source document (the linter's format). */
  warnings: Diagnostic[];
}

export function convertDensity(
  bytes: Uint8Array,
  from: Dpmm,
  to: Dpmm,
  plan: DocumentPlan,
  label?: LabelSize,
  hooks: ConversionHooks = {},
): DensityConversion {
  if (from === to) return { bytes, warnings: [] };
  const conversion: Conversion = {
    bytes,
    scale: new DensityScale(from, to),
    label,
    hooks,
    edits: [],
    losses: new LossReport(),
  };
  return convert(conversion, lex(bytes, hooks.meter), plan);
}

function convert(conversion: Conversion, tokens: Token[], plan: DocumentPlan): DensityConversion {
  const { bytes, scale, losses } = conversion;
  const textFields = plan.labels.flatMap((l) => l.fields).filter((f) => f.kind === 'text');
  const units = tokens.find((t) => t.prefix === '^' && t.name === 'MU' && !isPlainDots(t));
  if (units) {
    losses.warn(
      units.start,
      units.end - units.start,
      '^MU',
      0,
      `Units other than dots: the document is not converted to ${scale.to} dpmm`,
    );
    return { bytes, warnings: losses.warnings };
  }
  const fonts = new FontSizing(scale);
  const placement = new Placement(scale, conversion.label, textFields);
  const params: ParamContext = { ...conversion, fonts, placement };
  const barcodes = barcodeUse(tokens);
  let defaultsWritten = false;
  for (const tok of tokens) {
    if (tok.stray) continue;
    const key = tok.prefix + tok.name;
    if (key === '^XA' && !defaultsWritten) {
      defaultsWritten = true;
      writePowerUpDefaults(conversion, fonts, tok, barcodes);
      continue;
    }
    if (key === '^FS') placement.endField();
    if (followsLossyModule(conversion, tok)) losses.lossy(tok.start);
    const def = commandTable[key];
    if (!def) {
      losses.warn(tok.start, tok.end - tok.start, key, 0, `Unknown command ${key}: its parameters are not converted`);
      continue;
    }
    if (key === '^GF') resampleGraphicField(conversion, tok);
    else if (key === '~DG') resampleDownload(conversion, tok);
    else if (key === '~DY' && isGrf(tok)) resampleObject(conversion, tok);
    else if (key === '~DY' || key === '~DU' || key === '~DT' || key === '~DB') warnObject(conversion, tok, key);
    else scaleParams(params, tok, key, def);
  }
  fonts.checkFonts(plan, losses);
  const { fieldBitmap } = conversion.hooks;
  if (fieldBitmap) drawLossyAsBitmaps(conversion, placement.placing, tokens, plan, fieldBitmap);
  const { meter, claim, checkpoint } = conversion.hooks;
  const edited = applyEdits(bytes, conversion.edits, meter ?? decodeMeter(claim, checkpoint));
  return { bytes: edited, warnings: losses.sorted() };
}

/** `^MUD` without a conversion pair (or ^MU alone): dots, the only units this converter rescales. */
function isPlainDots(tok: Token): boolean {
  const parts = splitParts(tok, 0).map((p) => p.text.trim().toUpperCase());
  return (parts[0] ?? '') === '' || (parts[0] === 'D' && !parts[1] && !parts[2]);
}
