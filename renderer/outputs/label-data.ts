// Label data as the legacy service's JSON output gives it: every printed label's fields in drawing order, each with
// its origin and its data as it prints (^FH escapes, ^SN/^SF counting, ^FN templates and ^CI decoded).

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

/** One printed label's fields that carry data (text and barcodes; boxes and images have none). */
function labelFields(fields: readonly Field[], copy: number): FieldData[] {
  const out: FieldData[] = [];
  for (const field of fields) {
    const bytes = fieldData(field, copy);
    if (bytes === undefined) continue;
    out.push({ x: field.x, y: field.y, data: decodeFieldText(bytes, field.charset) });
  }
  return out;
}

/** Every printed label (^PQ copies included, each with its own serial numbers), or only the `index`-th one. */
export function documentData(plan: DocumentPlan, index?: number): DocumentData {
  const labels: LabelData[] = [];
  let printed = 0;
  for (const label of plan.labels) {
    for (let copy = 0; copy < label.copies; copy++, printed++) {
      if (index === undefined || index === printed) labels.push({ fields: labelFields(label.fields, copy) });
    }
  }
  return { labels };
}
