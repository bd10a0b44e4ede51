// Barcode module widths at another density: kept whole, and what rounding them costs reported at the value and
// remembered for the fields it sizes. The barcode table says which symbols take ^BY's module width.

import { defaultQrMagnification } from '../../barcodes/matrix/qr.js';
import { barcodeTraits } from '../../commands/field-kinds.js';
import type { Token } from '../../zpl/lexer.js';
import type { ParamSpec } from '../../zpl/params.js';
import type { Conversion } from './conversion.js';
import { partEnd, partStart, type Part } from './edits.js';

type ModuleContext = Pick<Conversion, 'scale' | 'edits' | 'losses'>;

/**
 * A barcode command whose symbol is sized by the ^BY module width in force, when that width is not whole at the
 * target: the field it makes is lossy (symbols with a module parameter of their own are not).
 */
export function followsLossyModule(ctx: ModuleContext, tok: Token): boolean {
  return tok.prefix === '^' && barcodeTraits(tok.name)?.module === 'BY' && ctx.losses.moduleLoss !== undefined;
}

/**
 * A module width parameter `value` (parameter `i` of `key`, written at `part`) scaled and kept whole, for the
 * caller to write; rounding is reported, and a ^BY width remembers why it is lossy for the barcodes after it.
 */
export function scaleModule(
  ctx: ModuleContext,
  tok: Token,
  key: string,
  spec: ParamSpec,
  i: number,
  part: Part,
  value: number,
): number {
  const m = ctx.scale.module(value, key === '^BQ');
  const next = m.value;
  const message = ctx.scale.moduleMessage(
    value,
    next,
    spec.name === 'moduleWidth' ? 'Module width' : `${spec.name[0]!.toUpperCase()}${spec.name.slice(1)}`,
  );
  if (m.lossy) {
    ctx.losses.warn(partStart(tok, part), part.b - part.a, key, i + 1, message);
    ctx.losses.lossy(partStart(tok, part));
  }
  if (key === '^BY') ctx.losses.moduleLoss = m.lossy || next > (spec.max ?? Infinity) ? message : undefined;
  return next;
}

/** ^BQ without a magnification draws with the density's default: written out when the scaled one is another. */
export function fillQrMagnification(ctx: ModuleContext, tok: Token, parts: Part[], i: number, skip: number): void {
  const { scale, edits, losses } = ctx;
  const source = defaultQrMagnification(scale.from);
  const m = scale.module(source, true);
  if (m.lossy) {
    losses.warn(
      tok.start,
      tok.end - tok.start,
      '^BQ',
      i + 1,
      scale.moduleMessage(source, m.value, 'Default magnification'),
    );
    losses.lossy(tok.start);
  }
  if (m.value === defaultQrMagnification(scale.to)) return;
  const k = i - skip;
  const part = parts[k];
  if (part) {
    edits.push({ start: partStart(tok, part), end: partStart(tok, part), text: String(m.value) });
    return;
  }
  const delimiter = String.fromCharCode(tok.delimiter);
  const end = parts.length ? partEnd(tok, parts.at(-1)!) : tok.paramStart + skip;
  edits.push({ start: end, end, text: delimiter.repeat(parts.length ? k - parts.length + 1 : k) + m.value });
}
