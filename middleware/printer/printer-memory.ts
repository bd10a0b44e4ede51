// A printer's memory between jobs: what one job stored on R:/E:/B: (downloads, ^DF formats) is there for the next,
// until ^ID, ~EG or a restart, and the settings jobs send (^PW, ^LL, ^MD, ~SD, ^PR, ^MM, ^JUS) are kept. The renderer
// keeps stored objects across the labels of one document, so each job is drawn after the commands that stored what
// it may recall: no renderer state crosses the worker boundary, and each job's stored objects count against its
// document's memory budget as they do over HTTP.

import { jobCommands } from './job-splitter.js';

/** Settings a printer keeps from the jobs it was sent. */
export interface PrinterSettings {
  /** ^PW: print width in dots. */
  printWidth?: number;
  /** ^LL: label length in dots. */
  labelLength?: number;
  /** ^MD: darkness adjustment; ~SD: darkness. */
  mediaDarkness?: number;
  darkness?: number;
  /** ^PR: print, slew and backfeed speeds as sent. */
  printRate?: string;
  /** ^MM: print mode (T tear-off, P peel-off, R rewind, C cutter, A applicator, ...). */
  printMode?: string;
  /** ^JUS was sent: the settings are saved. */
  saved: boolean;
}

const LATIN1 = new TextDecoder('latin1');
const DOWNLOADS: Readonly<Record<string, string>> = { '~DG': 'GRF', '~DY': '', '~DB': 'FNT', '~DU': 'FNT' };

/**
 * `d:o.x` upper-cased, drive `R:` and extension `defaultExt` when left out: the renderer's objectName
 * (renderer/graphics/objects.ts), which middleware may not import.
 */
export function storedName(raw: string, defaultExt: string): string {
  let s = raw.trim().toUpperCase();
  let drive = 'R';
  const m = /^([A-Z]):/.exec(s);
  if (m) {
    drive = m[1]!;
    s = s.slice(2);
  }
  if (defaultExt !== '' && !/\.[A-Z0-9]{1,3}$/.test(s)) s += `.${defaultExt}`;
  return `${drive}:${s}`;
}

/** ^ID patterns: `*` any run of characters; a name without a drive matches on every drive. */
function deletePattern(raw: string, defaultExt: string): RegExp {
  const trimmed = raw.trim().toUpperCase();
  const name = storedName(/^[A-Z*]:/.test(trimmed) ? trimmed : `*:${trimmed}`, defaultExt);
  const escaped = name.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
  return new RegExp(`^${escaped}$`);
}

export class PrinterMemory {
  /** Each stored object's storing commands, by stored name, oldest first. */
  readonly #records = new Map<string, Uint8Array>();
  #bytes = 0;
  readonly settings: PrinterSettings = { saved: false };

  constructor(readonly maxBytes: number) {}

  /** Bytes the stored objects' commands take. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Graphics stored (~HS `www`). */
  get graphics(): number {
    let n = 0;
    for (const name of this.#records.keys()) if (name.endsWith('.GRF')) n++;
    return n;
  }

  names(): string[] {
    return [...this.#records.keys()];
  }

  /**
   * What a job is drawn after: the commands that stored every kept object, as the kept (never changed) arrays, so a
   * queued job holds references, not a copy of the memory.
   */
  prefix(): Uint8Array[] {
    return [...this.#records.values()];
  }

  /** Keeps what `job` stores and deletes, and its settings; returns warnings (objects not kept for lack of memory). */
  apply(job: Uint8Array): string[] {
    const warnings: string[] = [];
    const commands = jobCommands(job);
    let labelStart = -1;
    let format: string | undefined;
    for (const c of commands) {
      const key = c.prefix + c.name;
      const text = (): string => LATIN1.decode(job.subarray(c.start + 1 + c.name.length, c.end)).replace(/[\r\n]/g, '');
      const firstParam = (): string => text().split(',')[0] ?? '';
      if (key === '^XA') {
        labelStart = c.start;
        format = undefined;
      } else if (key === '^DF' && labelStart >= 0) format = storedName(firstParam() || 'UNKNOWN', 'ZPL');
      else if (key === '^XZ') {
        if (format !== undefined) this.#keep(format, job.subarray(labelStart, c.end), warnings);
        labelStart = -1;
        format = undefined;
      } else if (key in DOWNLOADS) {
        const name = firstParam();
        if (name.trim() !== '' || key !== '~DY')
          this.#keep(storedName(name || 'UNKNOWN', DOWNLOADS[key]!), job.subarray(c.start, c.end), warnings);
      } else if (key === '^ID' || key === '~ID') this.#delete(deletePattern(firstParam() || '*', 'GRF'));
      else if (key === '~EG' || key === '^EG') this.#delete(/^[A-Z]:.*\.GRF$/);
      else this.#setting(key, text());
    }
    return warnings;
  }

  /** Forgets every object and setting (a restart). */
  clear(): void {
    this.#records.clear();
    this.#bytes = 0;
    const s = this.settings;
    delete s.printWidth;
    delete s.labelLength;
    delete s.mediaDarkness;
    delete s.darkness;
    delete s.printRate;
    delete s.printMode;
    s.saved = false;
  }

  #keep(name: string, bytes: Uint8Array, warnings: string[]): void {
    const old = this.#records.get(name);
    const without = this.#bytes - (old?.length ?? 0);
    if (without + bytes.length > this.maxBytes) {
      warnings.push(`Printer memory full (${this.maxBytes} bytes): ${name} not kept for later jobs`);
      return;
    }
    // Replaced objects move to the end: the prefix runs in the order they were last stored.
    this.#records.delete(name);
    this.#records.set(name, Uint8Array.from(bytes));
    this.#bytes = without + bytes.length;
  }

  #delete(pattern: RegExp): void {
    for (const [name, bytes] of this.#records) {
      if (!pattern.test(name)) continue;
      this.#records.delete(name);
      this.#bytes -= bytes.length;
    }
  }

  #setting(key: string, text: string): void {
    const whole = (): number | undefined => {
      const n = Number.parseInt(text.split(',')[0] ?? '', 10);
      return Number.isFinite(n) ? n : undefined;
    };
    const s = this.settings;
    switch (key) {
      case '^PW':
        s.printWidth = whole() ?? s.printWidth;
        break;
      case '^LL':
        s.labelLength = whole() ?? s.labelLength;
        break;
      case '^MD':
        s.mediaDarkness = whole() ?? s.mediaDarkness;
        break;
      case '~SD':
        s.darkness = whole() ?? s.darkness;
        break;
      case '^PR':
        s.printRate = text.trim();
        break;
      case '^MM':
        s.printMode = text.trim().charAt(0).toUpperCase() || s.printMode;
        break;
      case '^JU':
        if (text.trim().toUpperCase().startsWith('S')) s.saved = true;
        break;
    }
  }
}
