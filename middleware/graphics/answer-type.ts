// What POST /graphics answers for an Accept header: ZPL (as `text/plain`, what it always answered), the field as JSON,
// or an output switched on (router option `outputs`): ZPL as `application/zpl`, a print job in a printer language.

import { isPrinterLanguage, type PrinterLanguage } from '../../renderer/api.js';
import type { ExtraOutput } from '../api-table/index.js';
import { extraFormat, mediaRanges } from '../http/request-headers.js';

/** `text`: ZPL labelled `text/plain`; `json`: the ^GFA field's numbers and data; `zpl`: ZPL labelled `application/zpl`. */
export type GraphicsAnswer = { kind: 'text' | 'json' | 'zpl' } | { kind: 'job'; language: PrinterLanguage };

/**
 * The first type listed that /graphics serves decides: JSON always, ZPL and the print jobs when switched on. Without
 * one, the answer it always gave: JSON when the header names `application/json` anywhere, else ZPL as text.
 */
export function graphicsAnswer(accept: string | undefined, outputs: readonly ExtraOutput[]): GraphicsAnswer {
  for (const range of accept === undefined ? [] : mediaRanges(accept)) {
    const format = range === 'application/json' ? 'json' : extraFormat(range, outputs);
    if (format === undefined) continue;
    return isPrinterLanguage(format) ? { kind: 'job', language: format } : { kind: format };
  }
  return { kind: /application\/json/i.test(accept ?? '') ? 'json' : 'text' };
}
