// X-Lossy-Fields: bitmap. Every lossy field that can stand as a picture is written as a ^GF of its source drawing,
// scaled: its own commands removed, those that set what later fields use kept, ^LH zeroed around it (the bitmap's
// place is on the label). The warnings that made it lossy become one saying so.

import { barcodeTraits } from '../../commands/field-kinds.js';
import { belongsToField, commandTable } from '../../commands/index.js';
import type { DocumentPlan } from '../../interpreter.js';
import { labelDots } from '../../layout/dots.js';
import { printShift } from '../../layout/layout.js';
import type { Field } from '../../model.js';
import type { Token } from '../../zpl/lexer.js';
import type { PlacedBits } from '../field-bitmap.js';
import { encodeBits } from './bitmap.js';
import type { Conversion } from './conversion.js';
import { type Edit, prefixOf } from './edits.js';
import type { Placing } from './placement.js';

type LossyFieldContext = Pick<Conversion, 'bytes' | 'scale' | 'label' | 'edits' | 'losses'>;

export function drawLossyAsBitmaps(
  ctx: LossyFieldContext,
  placing: ReadonlyMap<number, Placing>,
  tokens: Token[],
  plan: DocumentPlan,
  fieldBitmap: (field: Field) => PlacedBits | undefined,
): void {
  const { bytes, edits, losses } = ctx;
  const uses = new Map<number, number>();
  for (const f of plan.labels.flatMap((l) => l.fields)) uses.set(f.at, (uses.get(f.at) ?? 0) + 1);
  const done = new Set<number>();
  for (const label of plan.labels) {
    for (const field of label.fields) {
      if (done.has(field.at) || !losses.isLossy(field.at, field.end)) continue;
      done.add(field.at);
      const why = pictureless(field, uses.get(field.at) ?? 0);
      if (why) {
        losses.warn(field.at, 0, '', 0, `Field not drawn as a bitmap (X-Lossy-Fields): ${why}`);
        continue;
      }
      const own = tokens.filter((t) => !t.stray && t.start >= field.at && t.start < field.end);
      const origin = own.find((t) => t.prefix === '^' && (t.name === 'FO' || t.name === 'FT'));
      const place = origin && placing.get(origin.start);
      const shown = ctx.label && place && fieldBitmap(field);
      if (!shown || !origin || !place) continue;
      const local = own.filter(isFieldLocal);
      for (let i = edits.length - 1; i >= 0; i--) if (local.some((t) => editsToken(edits[i]!, t))) edits.splice(i, 1);
      for (const t of local) edits.push({ start: t.start, end: t.end, text: '' });
      const p = prefixOf(bytes, origin, '^'),
        d = String.fromCharCode(origin.delimiter);
      const out = encodeBits(shown.bits);
      const shift = shiftAtTarget(ctx, label.printWidth);
      const x = shown.x - shift + place.shiftLeft,
        y = shown.y - place.shiftTop;
      edits.push({
        start: field.at,
        end: field.at,
        text:
          `${p}LH0${d}0${p}FO${x}${d}${y}${d}0${p}GFA${d}${out.total}${d}${out.total}${d}${out.rowBytes}${d}${out.data}${p}FS` +
          `${p}LH${place.home.x}${d}${place.home.y}\n`,
      });
      const reasons = losses.takeWithin(field.at, field.end);
      const reason = reasons[0]?.message ?? losses.moduleLoss ?? 'its sizes are not whole dots';
      losses.warn(
        field.at,
        field.end - field.at,
        field.kind === 'text' ? '^A' : `^${field.kind}`,
        0,
        `Drawn as a ${shown.bits.width}x${shown.bits.height}-dot ^GF graphic of its ${ctx.scale.from} dpmm drawing (X-Lossy-Fields: bitmap): ${reason}`,
      );
    }
  }
}

/** Whether an edit rewrites `tok`: an insertion at its first byte stands before it (the power-up defaults after ^XA). */
function editsToken(edit: Edit, tok: Token): boolean {
  if (edit.start === edit.end) return tok.start < edit.start && edit.start < tok.end;
  return edit.start < tok.end && tok.start < edit.end;
}

/** A command of the field (its barcode, ^FO, ^FD, ^A...), which the field's picture replaces. */
function isFieldLocal(tok: Token): boolean {
  const def = commandTable[tok.prefix + tok.name];
  return def !== undefined && belongsToField(def);
}

/** Why a field cannot become a picture of itself: its data changes per copy or per recall, or it inverts ink. */
function pictureless(field: Field, uses: number): string | undefined {
  if (barcodeTraits(field.kind)?.grid) return 'its reader needs whole, equal modules (rounded instead)';
  if (field.reverse) return 'it prints in reverse (^FR, ^LR) over what lies under it';
  if (field.serial) return 'its data changes on every copy (^SN, ^SF)';
  if (field.fieldNumber !== undefined || uses > 1) return 'it is a field of a stored format, filled at each recall';
  if (field.continues || field.origins) return 'it has no origin of its own (^FT without coordinates, ^FM)';
  return undefined;
}

/** Columns a ^PW narrower than the label moves fields right by at the target, ^PW as scaleParams writes it. */
function shiftAtTarget(ctx: Pick<Conversion, 'scale' | 'label'>, printWidth: number | undefined): number {
  if (printWidth === undefined || !ctx.label) return 0;
  return printShift(
    { printWidth: Math.round(printWidth * ctx.scale.dots) },
    labelDots(ctx.label.widthIn, ctx.scale.to),
  );
}
