// PDF page-composition headers: validated like the legacy service does; composed into sheets only when the
// router is set to apply them (`pageComposition: 'apply'`).

import type { PageComposition } from '../../renderer/index.js';
import {
  CHOICE_HEADERS,
  PAGE_LAYOUT_HEADER,
  REQUEST_HEADERS,
  type PageSizeName,
  type RequestHeaderName,
  type RequestHeaderSpec,
} from '../api-table/index.js';
import { PlainHttpError } from '../http/http-errors.js';
import type { LabelSize } from './path-params.js';
import { readHeaderValue, type HeaderLookup } from '../http/request-headers.js';

/** Page sizes in inches, portrait. */
const PAGE_SIZES: Readonly<Record<PageSizeName, { widthIn: number; heightIn: number }>> = {
  letter: { widthIn: 8.5, heightIn: 11 },
  legal: { widthIn: 8.5, heightIn: 14 },
  a4: { widthIn: 210 / 25.4, heightIn: 297 / 25.4 },
  a5: { widthIn: 148 / 25.4, heightIn: 210 / 25.4 },
  a6: { widthIn: 105 / 25.4, heightIn: 148 / 25.4 },
};

const ENTRIES: readonly RequestHeaderSpec[] = REQUEST_HEADERS;

/** Headers that ask for composed PDF pages: the table's entries that set `page` (validated; applied only with `pageComposition: 'apply'`). */
export const PAGE_COMPOSITION_HEADERS = ENTRIES.filter((spec) => spec.option === 'page').map(
  (spec) => spec.name as RequestHeaderName,
);

/** What a PDF request's page headers give: whether any was sent, and the sheet, when composition is applied. */
export interface PageHeaders {
  composes: boolean;
  options: { page?: PageComposition };
}

/**
 * Reads X-Page-Orientation, X-Page-Align, X-Page-Vertical-Align, X-Label-Border, X-Page-Layout and X-Page-Size in
 * that order, each value compared as sent (the first refusal is the answer), and checks that a layout's rows of
 * labels fit the page height when a page size is given. Applied, the sheet has the legacy defaults: one label per
 * sheet, justified both ways, a dashed border; without X-Page-Size the sheet is the grid's own size.
 */
export function readPageHeaders(header: HeaderLookup, label: LabelSize, apply: boolean): PageHeaders {
  const orientation = readHeaderValue(CHOICE_HEADERS.pageOrientation, header(CHOICE_HEADERS.pageOrientation.name));
  const align = readHeaderValue(CHOICE_HEADERS.pageAlign, header(CHOICE_HEADERS.pageAlign.name));
  const verticalAlign = readHeaderValue(
    CHOICE_HEADERS.pageVerticalAlign,
    header(CHOICE_HEADERS.pageVerticalAlign.name),
  );
  const border = readHeaderValue(CHOICE_HEADERS.labelBorder, header(CHOICE_HEADERS.labelBorder.name));
  const { columns, rows } = readHeaderValue(PAGE_LAYOUT_HEADER, header(PAGE_LAYOUT_HEADER.name)) ?? {
    columns: 1,
    rows: 1,
  };
  const sizeName = readHeaderValue(CHOICE_HEADERS.pageSize, header(CHOICE_HEADERS.pageSize.name));

  const portrait = sizeName !== undefined ? PAGE_SIZES[sizeName] : undefined;
  const size =
    portrait && orientation === 'landscape' ? { widthIn: portrait.heightIn, heightIn: portrait.widthIn } : portrait;
  if (size !== undefined) {
    // The label as it lies on the page: X-Rotation turns it, though a PDF is not rotated.
    const rotation = readHeaderValue(CHOICE_HEADERS.rotation, header(CHOICE_HEADERS.rotation.name)?.trim());
    const turned = rotation === 90 || rotation === 270;
    const labelHeightIn = turned ? label.widthIn : label.heightIn;
    if (rows * labelHeightIn > size.heightIn) {
      throw new PlainHttpError(
        400,
        `Not enough room to fit ${rows} label${rows === 1 ? '' : 's'} vertically; please adjust page layout, ` +
          'page size, page orientation, label size, or label rotation.',
      );
    }
  }

  const composes = PAGE_COMPOSITION_HEADERS.some((name) => header(name) !== undefined);
  if (!composes || !apply) return { composes, options: {} };
  return { composes, options: { page: { ...size, columns, rows, align, verticalAlign, border } } };
}
