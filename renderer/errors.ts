// Errors a render can end in. The message is the legacy service's text without the `ERROR: ` prefix;
// the code lets callers (HTTP layer, CLI) pick their own status without parsing messages.

export type RenderErrorCode =
  | 'no-labels' // the document printed nothing
  | 'index-out-of-range' // asked for a label past the last one
  | 'too-many-labels' // more labels than the configured maximum
  | 'too-large' // a label or embedded object over its size budget
  | 'invalid' // malformed input the service rejects up front
  | 'timeout' // the render took longer than its budget
  | 'overloaded' // too many renders waiting: refused at once, retry later
  | 'cancelled' // the caller went away (its signal aborted) before the render finished
  | 'memory' // the document's decoded graphics and rasters exceed its memory budget
  | 'failed'; // anything else that went wrong while rendering

export class RenderError extends Error {
  readonly code: RenderErrorCode;

  constructor(code: RenderErrorCode, message: string) {
    super(message);
    this.name = 'RenderError';
    this.code = code;
  }
}

/** English ordinal of a 1-based position: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 101st, 111th. */
export function ordinal(n: number): string {
  const mod100 = n % 100;
  if (mod100 >= 11 && mod100 <= 13) return `${n}th`;
  switch (n % 10) {
    case 1:
      return `${n}st`;
    case 2:
      return `${n}nd`;
    case 3:
      return `${n}rd`;
    default:
      return `${n}th`;
  }
}
