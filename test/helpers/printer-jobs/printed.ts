// What a printer-language reader makes of a job: the labels it prints, each a grid of dots. Shared by the readers in
// this folder (each written from its language's manual alone); nothing here comes from the renderer's writers.

/** One printed label: `width * height` dots, row by row, 1 = black. */
export interface PrintedDots {
  width: number;
  height: number;
  dots: Uint8Array;
}

/** A blank grid of dots that drawing clips to. */
export class DotGrid implements PrintedDots {
  readonly dots: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.dots = new Uint8Array(width * height);
  }

  set(x: number, y: number, black: boolean): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    this.dots[y * this.width + x] = black ? 1 : 0;
  }

  /** Draws `count` dots of a row starting at x, the bits of `bytes` MSB first (1 = black unless `oneIsWhite`). */
  row(x: number, y: number, bytes: Uint8Array, count: number, oneIsWhite = false): void {
    for (let i = 0; i < count; i++) {
      const bit = (bytes[i >> 3]! >> (7 - (i & 7))) & 1;
      this.set(x + i, y, oneIsWhite ? bit === 0 : bit === 1);
    }
  }

  copy(): PrintedDots {
    return { width: this.width, height: this.height, dots: Uint8Array.from(this.dots) };
  }
}

/** Bytes as text, one character a byte. */
export const latin1 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');

/** A reader's complaint about a job it cannot follow. */
export class JobError extends Error {}

/**
 * PackBits, as PCL 5 (compression method 2, "TIFF") and PCL XL (eRLECompression) define it: a control byte n of 0-127
 * copies the next n + 1 bytes, 129-255 repeats the next byte 257 - n times, 128 does nothing.
 */
export function unpackBits(data: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < data.length; ) {
    const n = data[i++]!;
    if (n < 128) for (let k = 0; k <= n; k++) out.push(data[i++]!);
    else if (n > 128) {
      const v = data[i++]!;
      for (let k = 0; k < 257 - n; k++) out.push(v);
    }
  }
  return Uint8Array.from(out);
}
