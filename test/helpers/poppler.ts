// poppler-utils from tests: PDFs rasterised (pdftoppm), their text (pdftotext) and images (pdfimages).

import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GreyImage } from '../../compare/ink-f1.js';

export function hasPoppler(): boolean {
  try {
    execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function withPdf<T>(pdf: Uint8Array, fn: (file: string, dir: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'zpl-pdf-'));
  try {
    const file = path.join(dir, 'in.pdf');
    writeFileSync(file, pdf);
    return fn(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Page `page` (1-based) rasterised in grey at exactly width x height pixels. */
export function rasterisePdf(pdf: Uint8Array, width: number, height: number, page = 1): GreyImage {
  return withPdf(pdf, (file, dir) => {
    execFileSync('pdftoppm', [
      '-gray',
      '-f',
      String(page),
      '-l',
      String(page),
      '-scale-to-x',
      String(width),
      '-scale-to-y',
      String(height),
      '-singlefile',
      file,
      path.join(dir, 'out'),
    ]);
    return parsePgm(readFileSync(path.join(dir, 'out.pgm')));
  });
}

/** rasterisePdf without blocking: several pages can be rasterised at once. */
export async function rasterisePdfAsync(pdf: Uint8Array, width: number, height: number): Promise<GreyImage> {
  const dir = await mkdtemp(path.join(tmpdir(), 'zpl-pdf-'));
  try {
    const file = path.join(dir, 'in.pdf');
    await writeFile(file, pdf);
    await promisify(execFile)('pdftoppm', [
      '-gray',
      '-scale-to-x',
      String(width),
      '-scale-to-y',
      String(height),
      '-singlefile',
      file,
      path.join(dir, 'out'),
    ]);
    return parsePgm(await readFile(path.join(dir, 'out.pgm')));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function pdfText(pdf: Uint8Array): string {
  return withPdf(pdf, (file) => execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }));
}

/** `pdfimages -list` rows (one per image), header lines dropped. */
export function pdfImages(pdf: Uint8Array): string[] {
  return withPdf(pdf, (file) => execFileSync('pdfimages', ['-list', file], { encoding: 'latin1' }))
    .split('\n')
    .slice(2)
    .filter((l) => l.trim() !== '');
}

/** `pdfinfo` as key -> value. */
export function pdfInfo(pdf: Uint8Array, extra: string[] = []): Record<string, string> {
  const text = withPdf(pdf, (file) => execFileSync('pdfinfo', [...extra, file], { encoding: 'latin1' }));
  return Object.fromEntries(
    text
      .split('\n')
      .filter((l) => l.includes(':'))
      .map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]),
  );
}

function parsePgm(buf: Buffer): GreyImage {
  // P5 <w> <h> <max>\n then bytes; header fields separated by whitespace.
  const fields: string[] = [];
  let i = 0;
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(buf[i]))) i++;
    let s = '';
    while (!/\s/.test(String.fromCharCode(buf[i]))) s += String.fromCharCode(buf[i++]);
    fields.push(s);
  }
  i++;
  const [magic, w, h] = fields;
  if (magic !== 'P5') throw new Error(`not a binary PGM: ${magic}`);
  const width = Number(w),
    height = Number(h);
  return { width, height, grey: new Uint8Array(buf.subarray(i, i + width * height)) };
}
