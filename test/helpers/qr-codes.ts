// Documents of many QR codes: small ZPL that is costly to lay out (about 1,700 module rects and 8 ms a code).

/** `count` QR codes of 620 bytes each on one label (400 of them fill 248 KiB, 1,600 about 1 MiB). */
export function qrCodesDocument(count: number): string {
  const field = (i: number) =>
    `^FO${i % 50},${i % 70}^BQN,2,4^FDMA,${String(i).padStart(4, '0')}${'X1Y2Z3'.repeat(100)}^FS`;
  return `^XA${Array.from({ length: count }, (_, i) => field(i)).join('')}^XZ`;
}
