// Reads a printer connection's bytes as a Zebra printer does, whatever the chunks: a job ends at ^XZ, binary
// downloads (^GF, ~DY, ~DB with B/C data) are skipped by their byte count so a ^XZ inside them ends nothing, host
// queries (~HS, ~HI, ~HQES) and ~PP/~PS act as they arrive. The cuts follow the renderer's lexer
// (renderer/zpl/lexer.ts: COUNTED_PAYLOADS, readName), which reads whole documents only, so each job lexes the same.

/** Commands a printer runs the moment they arrive, not at the end of the format. */
export type ImmediateCommand = 'HS' | 'HI' | 'HQES' | 'PP' | 'PS';

export type SplitEvent =
  /** A job ended just before absolute stream offset `end` (after its ^XZ). */
  | { type: 'end'; end: number }
  /** An immediate command whose last byte is before absolute offset `end`. */
  | { type: 'immediate'; command: ImmediateCommand; end: number }
  /** A command began at absolute offset `start` (prefix `^` or `~` as canonical, name upper-case). */
  | { type: 'command'; prefix: '^' | '~'; name: string; start: number };

interface CountedPayload {
  commas: number;
  countParam: number;
  binary: (params: string[]) => boolean;
}

/** The lexer's table: commands whose data after `commas` delimiters is binary, `countParam` bytes long. */
const COUNTED_PAYLOADS: Readonly<Record<string, CountedPayload>> = {
  '^GF': { commas: 4, countParam: 1, binary: (p) => p[0] === 'B' || p[0] === 'C' },
  '~DY': { commas: 5, countParam: 3, binary: (p) => p[1] === 'B' || p[1] === 'C' },
  '~DB': { commas: 8, countParam: 7, binary: () => true },
};

const CR = 0x0d;
const LF = 0x0a;
const TAG_LENGTH = 5; // `:Z64:` or `:B64:`

type State =
  | { kind: 'text' }
  | { kind: 'name'; prefix: '^' | '~'; start: number; chars: number[] }
  | { kind: 'char-arg'; name: 'CC' | 'CT' | 'CD' }
  | { kind: 'query-arg'; chars: number[] }
  | { kind: 'params'; spec: CountedPayload; params: string[]; current: string }
  | { kind: 'peek'; count: number; bytes: number[]; first: number }
  | { kind: 'binary'; remaining: number };

/** An incremental splitter: `push` each chunk in order, `finish` at the end of the stream. */
export class JobSplitter {
  #caret = 0x5e;
  #tilde = 0x7e;
  #delim = 0x2c;
  #state: State = { kind: 'text' };
  #offset = 0;
  #events: SplitEvent[] = [];
  /** Whether the job in progress holds anything but immediate commands and blanks. */
  #content = false;

  /** Absolute offset of the next byte. */
  get offset(): number {
    return this.#offset;
  }

  /** Whether the job in progress holds anything a printer would print or keep. */
  get jobHasContent(): boolean {
    return this.#content;
  }

  push(chunk: Uint8Array): SplitEvent[] {
    for (let i = 0; i < chunk.length; i++) this.#step(chunk[i]!, this.#offset++);
    return this.#drain();
  }

  /** The stream ended: bytes held to decide a payload are read as text. */
  finish(): SplitEvent[] {
    const st = this.#state;
    if (st.kind === 'peek') {
      this.#state = { kind: 'text' };
      for (let k = 0; k < st.bytes.length; k++) this.#step(st.bytes[k]!, st.first + k);
    }
    return this.#drain();
  }

  /** The job in progress is dropped (cut off): the next byte starts a new one. */
  reset(): void {
    this.#state = { kind: 'text' };
    this.#content = false;
  }

  #drain(): SplitEvent[] {
    const events = this.#events;
    this.#events = [];
    return events;
  }

  #isPrefix(b: number): boolean {
    return b === this.#caret || b === this.#tilde;
  }

  #step(b: number, at: number): void {
    const st = this.#state;
    switch (st.kind) {
      case 'text':
        if (this.#isPrefix(b))
          this.#state = { kind: 'name', prefix: b === this.#caret ? '^' : '~', start: at, chars: [] };
        else if (!isBlank(b)) this.#content = true;
        return;
      case 'binary':
        if (--st.remaining <= 0) this.#state = { kind: 'text' };
        return;
      case 'name':
        return this.#name(st, b, at);
      case 'char-arg':
        if (st.name === 'CC') this.#caret = b;
        else if (st.name === 'CT') this.#tilde = b;
        else this.#delim = b;
        this.#state = { kind: 'text' };
        return;
      case 'query-arg':
        if (this.#isPrefix(b)) {
          this.#state = { kind: 'text' };
          return this.#step(b, at);
        }
        if (b === CR || b === LF) return;
        st.chars.push(b | 0x20);
        if (st.chars.length === 2) {
          this.#state = { kind: 'text' };
          if (st.chars[0] === 0x65 && st.chars[1] === 0x73) this.#immediate('HQES', at + 1);
        }
        return;
      case 'params':
        if (this.#isPrefix(b)) {
          this.#state = { kind: 'text' };
          return this.#step(b, at);
        }
        if (b === this.#delim) {
          st.params.push(st.current.trim().toUpperCase());
          st.current = '';
          if (st.params.length === st.spec.commas) this.#afterParams(st.spec, st.params, at);
        } else if (b !== CR && b !== LF) st.current += String.fromCharCode(b);
        return;
      case 'peek':
        st.bytes.push(b);
        if (st.bytes.length === TAG_LENGTH) this.#decide(st);
        return;
    }
  }

  #name(st: Extract<State, { kind: 'name' }>, b: number, at: number): void {
    if (b === CR || b === LF) return;
    if (this.#isPrefix(b)) {
      this.#command(st.prefix, st.chars, st.start);
      this.#state = { kind: 'text' };
      return this.#step(b, at);
    }
    st.chars.push(b);
    // `^A` is a font selection whatever follows (the lexer's readName).
    if (st.chars.length === 1 && (b === 0x41 || b === 0x61) && st.prefix === '^') {
      this.#state = { kind: 'text' };
      this.#command(st.prefix, st.chars, st.start);
      return;
    }
    if (st.chars.length < 2) return;
    this.#state = { kind: 'text' };
    const name = this.#command(st.prefix, st.chars, st.start);
    const key = st.prefix + name;
    if (key === '^XZ') {
      this.#events.push({ type: 'end', end: at + 1 });
      this.#content = false;
    } else if (name === 'CC' || name === 'CT' || name === 'CD') this.#state = { kind: 'char-arg', name };
    else if (key === '~HS' || key === '~HI' || key === '~PP' || key === '~PS')
      this.#immediate(name as ImmediateCommand, at + 1);
    else if (key === '~HQ') this.#state = { kind: 'query-arg', chars: [] };
    else {
      const spec = COUNTED_PAYLOADS[key];
      if (spec) this.#state = { kind: 'params', spec, params: [], current: '' };
    }
  }

  #command(prefix: '^' | '~', chars: number[], start: number): string {
    // ASCII letters only are upper-cased, as the lexer does.
    const name = String.fromCharCode(...chars.map((c) => (c >= 0x61 && c <= 0x7a ? c - 0x20 : c)));
    this.#events.push({ type: 'command', prefix, name, start });
    if (!IMMEDIATE.has(prefix + name)) this.#content = true;
    return name;
  }

  #immediate(command: ImmediateCommand, end: number): void {
    this.#events.push({ type: 'immediate', command, end });
  }

  #afterParams(spec: CountedPayload, params: string[], at: number): void {
    const count = Number.parseInt(params[spec.countParam] ?? '', 10);
    if (!spec.binary(params) || !Number.isFinite(count) || count < 0) this.#state = { kind: 'text' };
    else this.#state = { kind: 'peek', count, bytes: [], first: at + 1 };
  }

  /** Five bytes after the parameters: a `:Z64:`/`:B64:` payload is text, anything else `count` binary bytes. */
  #decide(st: Extract<State, { kind: 'peek' }>): void {
    const tag = isBase64Tag(st.bytes);
    const binary = tag ? 0 : st.count;
    this.#state = binary > 0 ? { kind: 'binary', remaining: binary } : { kind: 'text' };
    // What the peek held is read again in the state just chosen (text after a short binary run may hold a ^XZ).
    for (let k = 0; k < st.bytes.length; k++) this.#step(st.bytes[k]!, st.first + k);
  }
}

const IMMEDIATE = new Set(['~HS', '~HI', '~HQ', '~PP', '~PS']);

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === CR || c === LF || c === 0 || c === 0xef || c === 0xbb || c === 0xbf;
}

function isBase64Tag(bytes: number[]): boolean {
  const kind = bytes[1]! | 0x20;
  return (
    bytes[0] === 0x3a && (kind === 0x7a || kind === 0x62) && bytes[2] === 0x36 && bytes[3] === 0x34 && bytes[4] === 0x3a
  );
}

/** Commands of one whole job, each with its byte span ([start, end): to the next command or the job's end). */
export function jobCommands(job: Uint8Array): { prefix: '^' | '~'; name: string; start: number; end: number }[] {
  const splitter = new JobSplitter();
  const events = [...splitter.push(job), ...splitter.finish()];
  const starts = events.filter((e): e is Extract<SplitEvent, { type: 'command' }> => e.type === 'command');
  return starts.map((c, k) => ({
    prefix: c.prefix,
    name: c.name,
    start: c.start,
    end: starts[k + 1]?.start ?? job.length,
  }));
}
