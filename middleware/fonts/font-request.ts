// POST /fonts' form read into the font and the order for it: each field checked against its row of the form table
// (api-table/form-fields.ts), every mistake a 400 that names the field, before any of the font is read.

import { FONT_FORM_FIELDS, segmentPattern, type FormFieldSpec } from '../api-table/index.js';
import { PlainHttpError } from '../http/http-errors.js';
import type { FormPart } from '../http/request-body.js';
import type { FontOrder } from './font-download.js';

export interface FontRequest {
  font: Uint8Array;
  order: FontOrder;
}

/** Largest code point (Unicode's last plane). */
const MAX_CODE_POINT = 0x10ffff;

/** The field's text when it was sent and is not empty (an empty field is a field not sent). */
function textOf(parts: readonly FormPart[], spec: FormFieldSpec): string | undefined {
  const text = parts.find((p) => p.name === spec.name)?.value.toString('utf8');
  if (text === undefined || text === '') return undefined;
  if (spec.pattern && !segmentPattern({ pattern: spec.pattern }).test(text))
    throw new PlainHttpError(400, spec.refusal?.(text) ?? `Invalid ${spec.name} ${text}`);
  return text;
}

/** `0030-0039,0041` as ranges, each first not above last and within Unicode. */
function unicodeRanges(text: string): Array<[number, number]> {
  return text.split(',').map((item) => {
    const [from, to = from] = item.split('-').map((hex) => Number.parseInt(hex, 16)) as [number, number?];
    if (from > to || to > MAX_CODE_POINT) throw new PlainHttpError(400, FONT_FORM_FIELDS.unicodes.refusal(text));
    return [from, to];
  });
}

/** The font and its order from the form (undefined: the body was no multipart form). */
export function readFontRequest(parts: readonly FormPart[] | undefined): FontRequest {
  if (parts === undefined)
    throw new PlainHttpError(400, "Send the font as multipart/form-data, the file in the field 'file'");
  const file = parts.find((p) => p.name === FONT_FORM_FIELDS.file.name);
  if (file === undefined || file.value.length === 0)
    throw new PlainHttpError(400, "No font: send the TrueType file as the multipart field 'file'");
  const path = textOf(parts, FONT_FORM_FIELDS.path)?.toUpperCase();
  const name = textOf(parts, FONT_FORM_FIELDS.name)?.toUpperCase();
  const chars = textOf(parts, FONT_FORM_FIELDS.chars);
  const unicodes = textOf(parts, FONT_FORM_FIELDS.unicodes);
  const keep =
    chars === undefined && unicodes === undefined
      ? undefined
      : {
          codePoints: [...new Set(chars ?? '')].map((c) => c.codePointAt(0)!),
          ranges: unicodes === undefined ? [] : unicodeRanges(unicodes),
        };
  return {
    font: file.value,
    order: { ...(path && { path }), ...(name && { name }), ...(keep && { keep }) },
  };
}
