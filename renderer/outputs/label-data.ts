// Label data as the legacy service's JSON output gives it: every printed label's fields in drawing order, each with
// its origin and its data as it prints (^FH escapes, ^SN/^SF counting, ^FN templates and ^CI decoded).

import type { DecodeMeter } from '../decode/meter.js';
import type { DocumentPlan } from '../interpreter.js';
import type { Field } from '../model.js';
import { fieldData } from '../serial-number.js';
import { decodeFieldText } from '../text/charset.js';

export interface FieldData {
  /** The field origin in dots as written (^FO or ^FT, label home and shifts applied). */
  x: number;
  y: number;
  data: string;
}

export interface LabelData {
  fields: FieldData[];
}

/** The observed answer's shape: `{"labels":[{"fields":[{"x","y","data"}]}]}`. */
export interface DocumentData {
  labels: LabelData[];
}

/** A data byte as a JS string (2 bytes) and in the JSON text and its UTF-8 body (up to 6 for an escape, 1 usually). */
const JSON_BYTES_PER_DATA_BYTE = 4;
/** One field's object and its `{"x":..,"y":..,"data":""}` around the data. */
const FIELD_BYTES = 64;

/** One printed label's fields that carry data (text and barcodes; boxes and images have none). */
function labelFields(fields: readonly Field[], copy: number, meter: DecodeMeter | undefined): FieldData[] {
  const out: FieldData[] = [];
  for (const field of fields) {
    const bytes = fieldData(field, copy);
    if (bytes === undefined) continue;
    // Its text (UTF-16) and its JSON form are made from it: claimed and charged first (^IS/^IL doubling, ^PQ copies).
    meter?.claim(bytes.length * JSON_BYTES_PER_DATA_BYTE + FIELD_BYTES, 'The JSON label data');
    meter?.charge(bytes.length + FIELD_BYTES);
    out.push({ x: field.x, y: field.y, data: decodeFieldText(bytes, field.charset) });
  }
  return out;
}

/** Every printed label (^PQ copies included, each with its own serial numbers), or only the `index`-th one. */
export function documentData(plan: DocumentPlan, index?: number, meter?: DecodeMeter): DocumentData {
  const labels: LabelData[] = [];
  let printed = 0;
  for (const label of plan.labels) {
    for (let copy = 0; copy < label.copies; copy++, printed++) {
      if (index === undefined || index === printed) labels.push({ fields: labelFields(label.fields, copy, meter) });
    }
  }
  return { labels };
}
