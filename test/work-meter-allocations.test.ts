// Buffers whose size comes from the input are had from the request's work meter (WorkMeter.bytes/bits, or a claim
// just before): this scan of the renderer's sources finds every typed array and Buffer allocated with a size that is
// not a constant, and holds each file to the count listed here with why it may. A new stage that allocates from its
// input without the meter fails here, naming its line; a file that needs fewer asks for its count to come down.

import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(process.cwd(), 'renderer');

/** An allocation: a typed array or Buffer made with a size (not a view of a buffer, not a copy of a constant table). */
const ALLOCATION =
  /new (?:Uint8|Int8|Uint16|Int16|Uint32|Int32|Float32|Float64|Uint8Clamped)Array\(|Buffer\.alloc(?:Unsafe)?(?:Slow)?\(/g;

/** Files allowed raw allocations of a size from their input, how many, and what bounds them. */
const ALLOWED: Record<string, [count: number, why: string]> = {
  'decode/meter.ts': [1, 'claimBytes, the one allocation of the seam (and of WorkMeter.bytes): it claims first'],
  'zpl/lexer.ts': [2, 'the payload slab: 5 bytes an input byte, bounded by the upload limit'],
  'serial-number.ts': [1, "one copy's ^SN/^SF data, its ^FD's length: dropped with the label that claims its glyphs"],
  'bounded-cache.ts': [1, 'its slot table, bounded by the cache size'],
  'decode/font-tables.ts': [1, 'glyph offsets: numGlyphs is a 16-bit field (at most 65,536, 256 KB), freed on return'],
  'barcodes/matrix/code49.ts': [1, 'a symbol grid: at most 8 rows of the symbol, bounded by the symbology'],
  'barcodes/matrix/grid.ts': [2, "a symbol's module grid, bounded by the symbology's largest version (bwip-js)"],
  'barcodes/matrix/maxicode.ts': [1, 'the bullseye: 30 x 33 modules at the label density, fixed by the symbology'],
  'barcodes/matrix/qr-symbol.ts': [3, 'a symbol grid, bounded by the symbology (177 x 177)'],
  'barcodes/matrix/qr.ts': [1, 'a symbol row, at most 177 + 8 modules'],
  'raster/raster.ts': [2, "the label raster (claimed by render() before interpreting) and its rows' ranges (8 a row)"],
  'raster/scratch.ts': [1, "the thread's reused raster, the label's size claimed by render()"],
  'raster/cell-coverage.ts': [3, 'a glyph cell grid (2 x 4 bytes a pixel) and its coverage, claimed by coverageMask'],
  'raster/sampled-coverage.ts': [6, "a shape's sample counts, edge tables and coverage, claimed by coverageMask"],
  'raster/glyph-mask.ts': [2, "a glyph mask's turned and crisp copies, claimed by glyphMask"],
  'raster/row-order.ts': [1, "one row of the claimed raster: at most the label's width"],
  'encoders/huffman.ts': [3, 'sort scratch for one alphabet: at most SYMBOL_SLOTS (512) symbols, grown once'],
  'encoders/png.ts': [4, 'the PNG body (the answer, its stream measured first) and row copies of one label width'],
  'encoders/png-rows.ts': [
    7,
    "filtered rows, (width + 1) x height: render()'s encoding share (a bitonal PNG's claimed by encodePng); row copies",
  ],
  'encoders/pdf/operators.ts': [
    1,
    'a keep-mask over one contour of a page, a byte a point of the claimed display list',
  ],
  'encoders/pdf/resources.ts': [
    1,
    "an image's 1-bit rows repacked to whole bytes: at most its bits, claimed when made",
  ],
  'encoders/printer-jobs/job-bytes.ts': [1, "a print job's bytes (the answer), the size of its encoded labels"],
  'encoders/printer-jobs/label-dots.ts': [1, "the 1-bit label, an eighth of the claimed raster's encoding share"],
  'encoders/printer-jobs/pcl6.ts': [1, 'one row of the label, its width in bytes rounded to 4'],
  'encoders/printer-jobs/sbpl.ts': [1, "one graphic of at most 999 bytes by 999 blocks of 8 rows, the command's limit"],
  'pool/render-pool.ts': [1, "a worker's answer body, already made in the worker"],
  'pool/render-worker.ts': [1, 'the shared control word'],
  'pool/wire.ts': [1, "an answer body's own copy"],
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** The text between the parentheses opened just before `from`. */
function argumentAt(src: string, from: number): string {
  let depth = 1,
    i = from;
  while (depth > 0 && i < src.length) {
    if (src[i] === '(') depth++;
    else if (src[i] === ')') depth--;
    i++;
  }
  return src.slice(from, i - 1).trim();
}

/** Constant sizes (UPPER_CASE names, numbers), views of an existing buffer, and shared control words are not counted. */
const notFromInput = (arg: string): boolean =>
  /^[A-Z0-9_ +\-*<>().]*$/.test(arg) || /\.buffer\b/.test(arg) || /^new (?:Shared)?ArrayBuffer\(\d/.test(arg);

function rawAllocations(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of sources(ROOT)) {
    const src = readFileSync(file, 'utf8');
    const name = relative(ROOT, file).split('\\').join('/');
    for (const m of src.matchAll(ALLOCATION)) {
      const arg = argumentAt(src, m.index + m[0].length);
      if (notFromInput(arg)) continue;
      const line = src.slice(0, m.index).split('\n').length;
      found.set(name, [...(found.get(name) ?? []), `${name}:${line}: ${m[0]}${arg})`]);
    }
  }
  return found;
}

describe('buffers sized by the input come from the work meter', () => {
  it('allocates raw only where the allow-list says, no more often than it says', () => {
    const over: string[] = [];
    for (const [file, sites] of rawAllocations()) {
      const allowed = ALLOWED[file]?.[0] ?? 0;
      if (sites.length > allowed) over.push(...sites, `  (${file}: ${sites.length}, allowed ${allowed})`);
    }
    expect(over, 'allocate with meter.bytes()/bits() or claim first; then list the file').to.deep.equal([]);
  });

  it('lists no more than is there (a count comes down when a stage moves to the meter)', () => {
    const found = rawAllocations();
    const stale = Object.entries(ALLOWED)
      .filter(([file, [count]]) => (found.get(file)?.length ?? 0) < count)
      .map(([file, [count]]) => `${file}: allowed ${count}, found ${found.get(file)?.length ?? 0}`);
    expect(stale).to.deep.equal([]);
  });
});
