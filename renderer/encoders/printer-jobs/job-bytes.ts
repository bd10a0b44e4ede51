// A print job assembled from commands (ASCII text) and graphic data (bytes), in order.

export class JobBytes {
  readonly #parts: Uint8Array[] = [];
  #length = 0;

  /** Command text; every character is one byte (latin1). */
  text(s: string): this {
    return this.bytes(Buffer.from(s, 'latin1'));
  }

  bytes(b: Uint8Array): this {
    this.#parts.push(b);
    this.#length += b.byteLength;
    return this;
  }

  /** The job in one buffer of its own (transferable from a worker without a copy). */
  finish(): Uint8Array {
    const out = new Uint8Array(new ArrayBuffer(this.#length));
    let at = 0;
    for (const p of this.#parts) {
      out.set(p, at);
      at += p.byteLength;
    }
    return out;
  }
}

/** TIFF PackBits (PCL 5 compression method 2, PCL XL eRLECompression): runs of 2+ equal bytes, literals otherwise. */
export function packBits(src: Uint8Array, out: number[] = []): number[] {
  const n = src.length;
  let i = 0;
  while (i < n) {
    let run = 1;
    while (i + run < n && run < 128 && src[i + run] === src[i]) run++;
    if (run >= 2) {
      out.push(257 - run, src[i]);
      i += run;
      continue;
    }
    // A literal stretch ends where a run of 2 begins (or after 128 bytes).
    let end = i + 1;
    while (end < n && end - i < 128 && !(end + 1 < n && src[end] === src[end + 1])) end++;
    out.push(end - i - 1);
    for (let k = i; k < end; k++) out.push(src[k]);
    i = end;
  }
  return out;
}
