// zpl-legacy-compat/printer: a printer on the network (raw ZPL on TCP 9100) for host apps; the standalone server
// starts one when PRINTER_PORT is set.

export { createPrinterListener } from './printer-listener.js';
export type { PrinterConditions, PrinterListener, PrinterListenerOptions } from './printer-listener.js';
export type { PrinterStatus } from './printer-answers.js';
export type { PrinterSettings } from './printer-memory.js';
export type { RetryOptions } from './job-forward.js';
export type {
  PrintedLabel,
  PrinterFeed,
  PrinterFeedEvent,
  PrinterFeedLimits,
  PrinterJobRecord,
} from '../stores/printer-feed.js';
