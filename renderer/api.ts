// The renderer's public surface: one call from ZPL bytes to encoded output.

import type { Diagnostic, DiagnosticsOmitted } from './diagnostics.js';

export type Dpmm = 6 | 8 | 12 | 24;
export type Rotation = 0 | 90 | 180 | 270;
export type Quality = 'grayscale' | 'bitonal';

/** Dots per inch as the legacy service computes it: floor(dpmm x 25.4) (a label is trunc(inches x this) dots a side). */
export function dotsPerInch(dpmm: Dpmm): number {
  return Math.floor(dpmm * 25.4);
}

/** Label size in dots: trunc(inches x dpi) per axis (4x6 at 8 dpmm = 812x1218). */
export function labelDots(inches: number, dpmm: Dpmm): number {
  return Math.floor(inches * dotsPerInch(dpmm) + 1e-9);
}

/**
 * Every output a render makes, with its media type and file extension: the one table the CLI and the HTTP layer
 * (Accept, Content-Type, Content-Disposition, the Accept forwarded upstream) read. `json` (label data) and `zpl` (the
 * document, converted or laid out) are made from the interpreted document, not drawn; the printer languages are print
 * jobs of the bitonal PNG's dots, one print per label.
 */
export const OUTPUT_TYPES = {
  png: { mediaType: 'image/png', extension: 'png' },
  pdf: { mediaType: 'application/pdf', extension: 'pdf' },
  json: { mediaType: 'application/json', extension: 'json' },
  zpl: { mediaType: 'application/zpl', extension: 'zpl' },
  ipl: { mediaType: 'application/ipl', extension: 'ipl' },
  epl: { mediaType: 'application/epl', extension: 'epl' },
  dpl: { mediaType: 'application/dpl', extension: 'dpl' },
  sbpl: { mediaType: 'application/sbpl', extension: 'sbpl' },
  pcl5: { mediaType: 'application/pcl5', extension: 'pcl' },
  pcl6: { mediaType: 'application/pcl6', extension: 'pxl' },
} as const satisfies Record<string, { mediaType: string; extension: string }>;

/** Anything `render()` makes. */
export type RenderFormat = keyof typeof OUTPUT_TYPES;
/** Print jobs for non-Zebra printers (Intermec, Eltron, Datamax, SATO, HP PCL 5 and PCL XL). */
export type PrinterLanguage = 'ipl' | 'epl' | 'dpl' | 'sbpl' | 'pcl5' | 'pcl6';
export const PRINTER_LANGUAGES: readonly PrinterLanguage[] = ['ipl', 'epl', 'dpl', 'sbpl', 'pcl5', 'pcl6'];
/** RenderFormat by its earlier name (a stable export): every format the HTTP layer negotiates is one render() makes. */
export type OutputFormat = RenderFormat;
export type MediaType = (typeof OUTPUT_TYPES)[RenderFormat]['mediaType'];

export function isPrinterLanguage(format: RenderFormat): format is PrinterLanguage {
  return (PRINTER_LANGUAGES as readonly string[]).includes(format);
}

/** Every label in one answer: a PDF or a print job asked for without an index (the all-labels path). */
export function drawsEveryLabel(req: { format: RenderFormat; index?: number | undefined }): boolean {
  return (req.format === 'pdf' || isPrinterLanguage(req.format)) && req.index === undefined;
}
/** `vector`: paths, glyph outlines and searchable text (default); `raster`: each label as one 1-bit image. */
export type PdfMode = 'vector' | 'raster';

export interface RenderLimits {
  /** Labels a document may produce (^PQ copies included); more is a `too-many-labels` error. Default 50. */
  maxLabels?: number;
  /** Pixels one label may have; more is a `too-large` error before anything is allocated. */
  maxPixels?: number;
  /**
   * Bytes one document may allocate for decoded graphics (^XF replays included), stored objects, its raster
   * and encoding buffers; claimed before allocating, more is a `memory` error. Default 256 MiB.
   */
  maxDocumentBytes?: number;
  /**
   * Milliseconds the render may take once started, read at every checkpoint of its work meter; more is a `timeout`
   * error. Default DEFAULT_RENDER_TIMEOUT_MS, the render pool's, so `zpl-render`, render() and a pool stop alike.
   */
  timeoutMs?: number;
  /** What each page after the first of a document drawing up to PAGES_WITH_OWN_BUDGET pages adds (default timeoutMs / 10). */
  pageTimeoutMs?: number;
}

/** The printer's real-time clock, as a render request sets it. */
export interface RenderClock {
  /** What ^FC clock fields print (in UTC): the same document and `now` render the same bytes. Default the current time. */
  now?: Date;
}

/**
 * What a request asks of the output. The HTTP headers' table (middleware/api-table/request-headers.ts) names the
 * option each header sets, and zpl-render's flags use the same names.
 */
export interface RenderOptions {
  format: RenderFormat;
  /** Clockwise; PNG and print jobs. */
  rotation?: Rotation;
  /** PNG only: `bitonal` gives a 1-bit PNG. */
  quality?: Quality;
  /** PDF only: how labels are drawn on the pages. Default `vector`. */
  pdf?: PdfMode;
  /** PDF only: labels placed on sheets in a grid instead of one label-sized page each. */
  page?: PageComposition;
  /** ZPL only: the density the document is converted to (X-Target-Dpmm); omitted, it is not converted. */
  targetDpmm?: Dpmm;
  /**
   * ZPL with targetDpmm: a field with no whole-dot form at the target (a module width or a device font between two
   * sizes) is `round`ed (default) or drawn as a `bitmap` (^GF) of its source drawing, scaled (X-Lossy-Fields).
   */
  lossyFields?: LossyFields;
  /** ZPL only: one field a line, ^XA and ^XZ on lines of their own (X-Formatter: On). */
  formatter?: boolean;
}

export interface RenderRequest extends RenderLimits, RenderClock, RenderOptions {
  dpmm: Dpmm;
  widthIn: number;
  heightIn: number;
  /** Zero-based label index; required for PNG. Omitted for PDF or a print job: every label, one page (print) each. */
  index?: number;
  /** Aborting it cancels the render: dropped while queued, stopped while running (RenderError 'cancelled'). */
  signal?: AbortSignal;
  /** Fair-scheduling key (the API key id): one tenant's backlog cannot delay another's beyond its share. */
  tenant?: string;
}

/** How a density conversion writes a field that has no whole-dot form at the target (X-Lossy-Fields). */
export type LossyFields = 'round' | 'bitmap';

/** Sheets of labels (the legacy service's X-Page-* headers): a grid, aligned on the sheet, bordered. */
export interface PageComposition {
  /** Sheet size in inches as it prints (landscape already turned); omitted, the grid's own size. */
  widthIn?: number;
  heightIn?: number;
  columns: number;
  rows: number;
  /** `justify` spreads the spare space evenly before, between and after the labels. */
  align: 'left' | 'right' | 'center' | 'justify';
  verticalAlign: 'top' | 'bottom' | 'center' | 'justify';
  border: 'dashed' | 'solid' | 'none';
}

/** What a document will produce, known after interpreting and before anything is drawn. */
export interface RenderPlan {
  /** Every label the document produces. */
  totalCount: number;
  /** Labels this request will draw (1, or every label for an all-labels PDF or print job). */
  pages: number;
}

/** Calls a render makes into its caller; each optional. Functions stay on the caller's thread. */
export interface RenderHooks {
  /**
   * Called once, between interpreting and drawing (e.g. to reserve pages). A rejection stops the render,
   * and the render fails with that very error.
   */
  admit?: (plan: RenderPlan) => Promise<void> | void;
  /** Called between fields and between labels; throwing stops the render with that error (cancel, time budget). */
  checkpoint?: () => void;
  /** Called once when rendering begins: on a render pool, when a thread takes the render after its wait in the queue. */
  started?: () => void;
  /**
   * Milliseconds of work before the render gives the event loop a turn (between commands, labels and display
   * elements). Default DEFAULT_SLICE_MS on the main thread, so a server rendering there keeps answering; none on a
   * worker thread (a render pool's threads run each render through).
   */
  sliceMs?: number;
}

export interface RenderResult {
  body: Uint8Array;
  contentType: MediaType;
  /** Every label the document produces, ^PQ copies included. */
  totalCount: number;
  /** Labels actually rendered into `body`. */
  pages: number;
  /**
   * Diagnostics in evaluation order: the first MAX_KEPT_DIAGNOSTICS distinct ones (callers cap for X-Warnings);
   * those met past them are counted in `warningsOmitted`.
   */
  warnings: Diagnostic[];
  /** Diagnostics met past `warnings`, counted by command; absent when `warnings` holds every one met. */
  warningsOmitted?: DiagnosticsOmitted;
  /**
   * ZPL output: what the density conversion could not do faithfully (a module width that is not whole at the target,
   * a device font between magnifications), in the linter's format; reported whether or not the linter is on.
   */
  notices?: Diagnostic[];
  /**
   * Commands in the document this renderer does not draw (unknown, or known but not implemented),
   * e.g. `["^BD"]`. Empty when the picture is complete; proxy fallback forwards otherwise.
   */
  unsupported: string[];
}

/**
 * What was counted past the kept diagnostics, as one line of text, most first (zpl-render --lint, the printer port's
 * job warnings; here so the middleware reaches it through a light entry): `and 35 more: ^QQ 30, ^QZ 5`. */
export function omittedLine(omitted: DiagnosticsOmitted): string {
  const ranked = Object.entries(omitted.byCommand).sort((a, b) => b[1] - a[1]);
  return `and ${omitted.total} more: ${ranked.map(([command, n]) => `${command || '(none)'} ${n}`).join(', ')}`;
}

/** Time one render may take, from the moment it starts (the render pool's, render()'s and zpl-render's). */
export const DEFAULT_RENDER_TIMEOUT_MS = 10_000;

/** Work a render on the main thread does between two turns of the event loop (RenderHooks.sliceMs). */
export const DEFAULT_SLICE_MS = 10;
/** Documents of up to this many pages (the largest legal document) get a time budget per page. */
export const PAGES_WITH_OWN_BUDGET = 50;

/**
 * The time budget of a render drawing `pages` pages: the base budget, plus `pageBudgetMs` for each page after
 * the first of a document of up to PAGES_WITH_OWN_BUDGET pages (larger ones, allowed by a raised label limit, get the base).
 */
export function renderBudgetMs(budgetMs: number, pageBudgetMs: number, pages: number): number {
  return pages <= PAGES_WITH_OWN_BUDGET ? budgetMs + Math.max(0, pages - 1) * pageBudgetMs : budgetMs;
}

/** Labels one document may hold unless a request says otherwise (RenderRequest.maxLabels). */
export const DEFAULT_MAX_LABELS = 50;
/** Enough for a 15x15 inch label at 24 dpmm (9135 x 9135 dots) (RenderRequest.maxPixels). */
export const DEFAULT_MAX_PIXELS = 9135 * 9135;
