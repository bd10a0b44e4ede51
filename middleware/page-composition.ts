// PDF page-composition headers: validated like the legacy service does; composed into sheets only when the
// router is set to apply them (`pageComposition: 'apply'`).

import type { PageComposition, Rotation } from '../renderer/index.js';
import { PlainHttpError } from './http-errors.js';
import type { LabelSize } from './path-params.js';

/** Page sizes in inches, portrait. */
const PAGE_SIZES: Readonly<Record<string, { widthIn: number; heightIn: number }>> = {
  letter: { widthIn: 8.5, heightIn: 11 },
  legal: { widthIn: 8.5, heightIn: 14 },
  a4: { widthIn: 210 / 25.4, heightIn: 297 / 25.4 },
  a5: { widthIn: 148 / 25.4, heightIn: 210 / 25.4 },
  a6: { widthIn: 105 / 25.4, heightIn: 148 / 25.4 },
};

/** Each choice header, its accepted values (case-insensitive) and the start of its 400 message. */
const CHOICE_HEADERS = [
  { header: 'X-Page-Orientation', values: ['portrait', 'landscape'], error: 'Invalid page orientation' },
  { header: 'X-Page-Align', values: ['left', 'right', 'center', 'justify'], error: 'Invalid alignment' },
  { header: 'X-Page-Vertical-Align', values: ['top', 'bottom', 'center', 'justify'], error: 'Invalid vertical alignment' },
  { header: 'X-Label-Border', values: ['dashed', 'solid', 'none'], error: 'Invalid label border' },
] as const;

const LAYOUT = /^(\d+)x(\d+)$/i;

type HeaderLookup = (name: string) => string | undefined;

/**
 * Validates X-Page-Size, X-Page-Orientation, X-Page-Layout, X-Page-Align, X-Page-Vertical-Align and
 * X-Label-Border, and that a layout's rows of labels fit the page height when a page size is given.
 */
export function validatePageHeaders(header: HeaderLookup, label: LabelSize, rotation: Rotation): void {
  for (const { header: name, values, error } of CHOICE_HEADERS) {
    const value = header(name);
    if (value !== undefined && !(values as readonly string[]).includes(value.toLowerCase())) {
      throw new PlainHttpError(400, `${error}: ${value}`);
    }
  }

  const layout = header('X-Page-Layout');
  let rows = 1;
  if (layout !== undefined) {
    const match = LAYOUT.exec(layout);
    if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
      throw new PlainHttpError(400, `Invalid page layout: ${layout}`);
    }
    rows = Number(match[2]);
  }

  const sizeName = header('X-Page-Size');
  if (sizeName === undefined) return;
  const page = PAGE_SIZES[sizeName.toLowerCase()];
  if (!page) throw new PlainHttpError(400, `Invalid page size: ${sizeName}`);

  const landscape = header('X-Page-Orientation')?.toLowerCase() === 'landscape';
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

/** Headers that ask the legacy service to compose PDF pages (this service only validates them). */
export const PAGE_COMPOSITION_HEADERS: readonly string[] = [
  'X-Page-Size', 'X-Page-Layout', ...CHOICE_HEADERS.map(({ header }) => header),
];

export function asksForPageComposition(header: HeaderLookup): boolean {
  return PAGE_COMPOSITION_HEADERS.some((name) => header(name) !== undefined);
}

/**
 * The sheets the (already validated) headers ask for, with the legacy defaults: one label per sheet, justified both
 * ways, a dashed border; without X-Page-Size the sheet is the grid's own size.
 */
export function pageComposition(header: HeaderLookup): PageComposition {
  const lower = (name: string) => header(name)?.toLowerCase();
  const match = LAYOUT.exec(header('X-Page-Layout') ?? '1x1');
  const size = PAGE_SIZES[lower('X-Page-Size') ?? ''];
  const landscape = lower('X-Page-Orientation') === 'landscape';
  return {
    ...(size && (landscape ? { widthIn: size.heightIn, heightIn: size.widthIn } : { ...size })),
    columns: Number(match?.[1] ?? 1),
    rows: Number(match?.[2] ?? 1),
    align: (lower('X-Page-Align') ?? 'justify') as PageComposition['align'],
    verticalAlign: (lower('X-Page-Vertical-Align') ?? 'justify') as PageComposition['verticalAlign'],
    border: (lower('X-Label-Border') ?? 'dashed') as PageComposition['border'],
  };
}
