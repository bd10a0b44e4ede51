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

export class DiagnosticLog {
  readonly entries: Diagnostic[] = [];
  private readonly seen = new Set<string>();

  /** Records a diagnostic once: drawing every copy of a label (or recalling a format again) meets the same fault again. */
  add(d: Diagnostic): void {
    const key = `${d.byteIndex}|${d.byteSize}|${d.command}|${d.param}|${d.message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.entries.push(d);
  }

  /** Features not drawn (see Diagnostic.feature), each once, in the order first met. */
  features(): string[] {
    return [...new Set(this.entries.flatMap((d) => (d.feature === undefined ? [] : [d.feature])))];
  }
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
