// PDF page-composition headers: validated like the legacy service does; composed into sheets only when the
// router is set to apply them (`pageComposition: 'apply'`).

import type { PageComposition, Rotation } from '../../renderer/index.js';
import {
  CHOICE_HEADERS,
  listedValue,
  PAGE_LAYOUT_HEADER,
  readHeader,
  segmentPattern,
  type PageSizeName,
  type RequestHeaderName,
} from '../api-table/index.js';
import { PlainHttpError } from '../http/http-errors.js';
import type { LabelSize } from './path-params.js';

/** Page sizes in inches, portrait. */
const PAGE_SIZES: Readonly<Record<PageSizeName, { widthIn: number; heightIn: number }>> = {
  letter: { widthIn: 8.5, heightIn: 11 },
  legal: { widthIn: 8.5, heightIn: 14 },
  a4: { widthIn: 210 / 25.4, heightIn: 297 / 25.4 },
  a5: { widthIn: 148 / 25.4, heightIn: 210 / 25.4 },
  a6: { widthIn: 105 / 25.4, heightIn: 148 / 25.4 },
};

/** The page headers whose values are a fixed list (accepted values and 400 texts: api-table/request-headers.ts). */
const PAGE_CHOICE_HEADERS = [
  CHOICE_HEADERS.pageOrientation,
  CHOICE_HEADERS.pageAlign,
  CHOICE_HEADERS.pageVerticalAlign,
  CHOICE_HEADERS.labelBorder,
];

const LAYOUT = segmentPattern(PAGE_LAYOUT_HEADER);

/** A request's header by name; blank values are absent (`apiHeader`). */
type HeaderLookup = (name: RequestHeaderName) => string | undefined;

/**
 * Validates X-Page-Size, X-Page-Orientation, X-Page-Layout, X-Page-Align, X-Page-Vertical-Align and
 * X-Label-Border, and that a layout's rows of labels fit the page height when a page size is given.
 */
export function validatePageHeaders(header: HeaderLookup, label: LabelSize, rotation: Rotation): void {
  for (const { name, refusal } of PAGE_CHOICE_HEADERS) {
    const value = header(name);
    if (value !== undefined && listedValue(name, value) === undefined) {
      throw new PlainHttpError(400, refusal(value));
    }
  }

  const layout = header(PAGE_LAYOUT_HEADER.name);
  let rows = 1;
  if (layout !== undefined) {
    if (!LAYOUT.test(layout)) throw new PlainHttpError(400, PAGE_LAYOUT_HEADER.refusal(layout));
    rows = Number(layout.split(/x/i)[1]);
  }

  const sizeName = header(CHOICE_HEADERS.pageSize.name);
  if (sizeName === undefined) return;
  const sizeKey = listedValue(CHOICE_HEADERS.pageSize.name, sizeName);
  if (sizeKey === undefined) throw new PlainHttpError(400, CHOICE_HEADERS.pageSize.refusal(sizeName));
  const page = PAGE_SIZES[sizeKey];

  const landscape = readHeader(header, 'X-Page-Orientation') === 'landscape';
  const pageHeightIn = landscape ? page.widthIn : page.heightIn;
  const turned = rotation === 90 || rotation === 270;
  const labelHeightIn = turned ? label.widthIn : label.heightIn;
  if (rows * labelHeightIn > pageHeightIn) {
    throw new PlainHttpError(
      400,
      `Not enough room to fit ${rows} label${rows === 1 ? '' : 's'} vertically; please adjust page layout, ` +
        'page size, page orientation, label size, or label rotation.',
    );
  }
}

/** Headers that ask for composed PDF pages (validated; applied only with `pageComposition: 'apply'`). */
export const PAGE_COMPOSITION_HEADERS: readonly RequestHeaderName[] = [
  CHOICE_HEADERS.pageSize.name,
  PAGE_LAYOUT_HEADER.name,
  ...PAGE_CHOICE_HEADERS.map(({ name }) => name),
];

export function asksForPageComposition(header: HeaderLookup): boolean {
  return PAGE_COMPOSITION_HEADERS.some((name) => header(name) !== undefined);
}

/**
 * The sheets the (already validated) headers ask for, with the legacy defaults: one label per sheet, justified both
 * ways, a dashed border; without X-Page-Size the sheet is the grid's own size.
 */
export function pageComposition(header: HeaderLookup): PageComposition {
  const [columns, rows] = (header(PAGE_LAYOUT_HEADER.name) ?? '1x1').split(/x/i).map(Number);
  const sizeName = readHeader(header, 'X-Page-Size');
  const size = sizeName !== undefined ? PAGE_SIZES[sizeName] : undefined;
  const landscape = readHeader(header, 'X-Page-Orientation') === 'landscape';
  return {
    ...(size && (landscape ? { widthIn: size.heightIn, heightIn: size.widthIn } : { ...size })),
    columns: columns ?? 1,
    rows: rows ?? 1,
    align: readHeader(header, 'X-Page-Align'),
    verticalAlign: readHeader(header, 'X-Page-Vertical-Align'),
    border: readHeader(header, 'X-Label-Border'),
  };
}
