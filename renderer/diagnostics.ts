// Diagnostics the interpreter meets, in evaluation order; the linter (X-Warnings) reports them.

export interface Diagnostic {
  /** 0-based byte offset in the document of the offending parameter value (or command). */
  byteIndex: number;
  /** Length in bytes of that value (0 for something missing). */
  byteSize: number;
  /** Command name with its prefix, e.g. `^FO`; empty when not tied to one command. */
  command: string;
  /** 1-based parameter number; 0 when the diagnostic is about the whole command. */
  param: number;
  message: string;
  /**
   * Set when this renderer skipped or approximated something the legacy service draws: a stable name
   * (`^QQ` for an unknown command, `^BR:7`, `~DB`, `^FC`...). RenderResult.unsupported lists them; fallback forwards on any.
   */
  feature?: string;
}

/**
 * Diagnostics met past the kept ones (RenderResult.warnings): counted, not kept. Plain data, so it crosses the render
 * pool's thread boundary as it is; a render has it only when something was left out.
 */
export interface DiagnosticsOmitted {
  /** How many were met past the kept ones (copies met again counted too). */
  total: number;
  /** The same by command (`^QQ`), in the order first met; `*` counts kinds past the ones named one by one. */
  byCommand: Record<string, number>;
}

/** Diagnostics kept in full: more than any answer shows (X-Warnings and the preview show 20). */
export const MAX_KEPT_DIAGNOSTICS = 100;
/** Kinds (commands) counted one by one past the kept entries; the rest are counted together under `*`. */
const MAX_COUNTED_KINDS = 64;
/** A kept message is cut here (a message may quote an object name as long as its command). */
const MAX_MESSAGE_CHARS = 4096;
/** What meeting one diagnostic charges the request's meter: a few hundred nanoseconds of work. */
const DIAGNOSTIC_UNITS = 64;

/**
 * The linter's log, bounded whatever the document: the first MAX_KEPT_DIAGNOSTICS distinct diagnostics in full (their
 * de-duplication keys with them), then only a count per kind; every one met is charged to the request's meter.
 */
export class DiagnosticLog {
  readonly entries: Diagnostic[] = [];
  /** Diagnostics met past the kept ones, by command (`*` for kinds past MAX_COUNTED_KINDS). */
  readonly omitted = new Map<string, number>();
  private readonly seen = new Set<string>();
  private readonly featureSet = new Set<string>();
  private readonly meter: { charge(units: number): void } | undefined;

  constructor(meter?: { charge(units: number): void }) {
    this.meter = meter;
  }

  /** Records a diagnostic once: drawing every copy of a label (or recalling a format again) meets the same fault again. */
  add(d: Diagnostic): void {
    this.meter?.charge(DIAGNOSTIC_UNITS);
    if (d.feature !== undefined) this.featureSet.add(d.feature);
    if (this.entries.length >= MAX_KEPT_DIAGNOSTICS) {
      const kind = this.omitted.has(d.command) || this.omitted.size < MAX_COUNTED_KINDS ? d.command : '*';
      this.omitted.set(kind, (this.omitted.get(kind) ?? 0) + 1);
      return;
    }
    const key = `${d.byteIndex}|${d.byteSize}|${d.command}|${d.param}|${d.message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.entries.push(
      d.message.length > MAX_MESSAGE_CHARS ? { ...d, message: `${d.message.slice(0, MAX_MESSAGE_CHARS - 3)}...` } : d,
    );
  }

  /** Diagnostics met past the kept entries (copies met again counted too). */
  get omittedCount(): number {
    let n = 0;
    for (const c of this.omitted.values()) n += c;
    return n;
  }

  /** What was met past the kept entries, as plain data; undefined when nothing was (the usual case costs nothing). */
  omittedSummary(): DiagnosticsOmitted | undefined {
    if (this.omitted.size === 0) return undefined;
    return { total: this.omittedCount, byCommand: Object.fromEntries(this.omitted) };
  }

  /** Features not drawn (see Diagnostic.feature), each once, in the order first met. */
  features(): string[] {
    return [...this.featureSet];
  }
}

const NOTHING_OMITTED: { warningsOmitted?: DiagnosticsOmitted } = Object.freeze({});

/** A result's `warningsOmitted`, to spread into it: nothing at all when the log kept every diagnostic. */
export function withOmitted(log: DiagnosticLog): { warningsOmitted?: DiagnosticsOmitted } {
  const summary = log.omittedSummary();
  return summary ? { warningsOmitted: summary } : NOTHING_OMITTED;
}

/** Where a field's data stands in the document (its ^FD), or its first command when it has none. */
export function fieldDataSpan(field: { at: number; dataAt?: { offset: number; size: number } }): {
  byteIndex: number;
  byteSize: number;
} {
  return field.dataAt
    ? { byteIndex: field.dataAt.offset, byteSize: field.dataAt.size }
    : { byteIndex: field.at, byteSize: 0 };
}
