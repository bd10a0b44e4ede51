// Measures font 0 from the legacy renderer's reference PNGs and writes renderer/fonts/font0-metrics.ts.
// Run after `tsc`: node dist/renderer/fonts/measure/measure-font0.js [path/to/manifest.json]
// Uses the fixture PNG decoder from ../shared/tools at measure time only (never at render time).
//
// Each measured fixture draws one glyph three times with ^FO200,200^A0N,h,w. The advance is the
// period of the column ink profile; the glyph's ink box comes from the outermost pixels' coverage.

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { decodeHexEscapes } from '../../commands/field.js';
import { decodeFieldText } from '../../text/charset.js';
import { extent, flatPeriod, loadDecoder, period, profiles, runsPeriod, type Gray } from './ink.js';

interface Case { id: string; zpl: string; png?: string; group: string }

interface Sample { cp: number; h: number; w: number; advance: number; left: number; right: number; top: number; bottom: number }

const ORIGIN = 200;

/** The one ^A0 field of a fixture, its data decoded as the renderer decodes it (^FH, ^CI). */
function parseCase(zplBytes: Buffer): { text: string; h: number; w: number; x: number; y: number } | null {
  const zpl = zplBytes.toString('latin1');
  const m = /\^FO(\d+),(\d+)\^A0N,(\d+),(\d+)(\^FH)?\^FD(.*?)\^FS/s.exec(zpl);
  if (!m) return null;
  const ci = /\^CI(\d+)/.exec(zpl);
  const data = decodeHexEscapes(Buffer.from(m[6], 'latin1'), m[5] ? 0x5f : undefined);
  return { x: +m[1], y: +m[2], h: +m[3], w: +m[4], text: decodeFieldText(data, ci ? +ci[1] : 0) };
}

function measure(img: Gray, cp: number, h: number, w: number, y0: number): Omit<Sample, 'top' | 'bottom'> & { topEdge: number; bottomEdge: number } | null {
  const { colMax, rowMax, colSum } = profiles(img);
  const xs = extent(colMax), ys = extent(rowMax);
  if (!xs || !ys) return null;
  const adv = runsPeriod(colMax) ?? flatPeriod(colSum, xs) ?? period(colSum, Math.floor(xs[0]), Math.ceil(xs[1]));
  return { cp, h, w, advance: adv, left: xs[0] - ORIGIN, right: xs[1] - 2 * adv - ORIGIN, topEdge: ys[0] - y0, bottomEdge: ys[1] - y0 };
}

async function main(): Promise<void> {
  const manifestPath = path.resolve(process.argv[2] ?? '../shared/fixtures/manifest.json');
  const base = path.dirname(manifestPath);
  const decodePng = await loadDecoder(manifestPath);
  const cases = (JSON.parse(readFileSync(manifestPath, 'utf8')) as Case[])
    .filter((c) => c.group === 'text' && c.png && c.id.includes('labelary_text_default_images'));

  const raw: ReturnType<typeof measure>[] = [];
  const phrases: { text: string; h: number; w: number; x: number; right: number }[] = [];
  for (const c of cases) {
    const zplBytes = readFileSync(path.join(base, c.zpl));
    const p = parseCase(zplBytes);
    if (!p) continue;
    const chars = [...p.text];
    const img = decodePng(readFileSync(path.join(base, c.png!)));
    if (p.text.includes(' ') && p.h === p.w) {
      const xs = extent(profiles(img).colMax);
      if (xs) phrases.push({ text: p.text, h: p.h, w: p.w, x: p.x, right: xs[1] });
    }
    if (p.x !== ORIGIN || chars.length !== 3 || chars[0] !== chars[1] || chars[1] !== chars[2]) continue;
    raw.push(measure(img, chars[0].codePointAt(0)!, p.h, p.w, p.y));
  }
  const samples = raw.filter((s): s is NonNullable<typeof s> => s !== null);

  // Baseline: the bottom of flat-bottomed capitals and digits at each size.
  const flat = new Set([0x41, 0x4d, 0x57 /* W is pointed but sits on the line */, 0x35, 0x39, 0x30]);
  const baseByH = new Map<number, number[]>();
  for (const s of samples) {
    if (!flat.has(s.cp) || s.cp === 0x57) continue;
    const list = baseByH.get(s.h) ?? [];
    list.push(s.bottomEdge);
    baseByH.set(s.h, list);
  }
  const pts = [...baseByH].map(([h, l]) => [h, l.reduce((a, b) => a + b, 0) / l.length] as const);
  // least squares baseline = a * h + b
  const n = pts.length, sx = pts.reduce((s, p) => s + p[0], 0), sy = pts.reduce((s, p) => s + p[1], 0);
  const sxx = pts.reduce((s, p) => s + p[0] * p[0], 0), sxy = pts.reduce((s, p) => s + p[0] * p[1], 0);
  const a = (n * sxy - sx * sy) / (n * sxx - sx * sx), b = (sy - a * sx) / n;

  // Glyph boxes in units of the height, from the size-50 fixtures (all of printable Latin-1 is there).
  const glyphs: Record<number, number[]> = {};
  const r4 = (v: number) => Math.round(v * 10000) / 10000;
  for (const s of samples) {
    if (s.h !== 50 || s.w !== 50) continue;
    const baseline = a * s.h + b;
    glyphs[s.cp] = [s.advance, s.left, s.right, baseline - s.topEdge, baseline - s.bottomEdge].map((v) => r4(v / s.h));
  }
  // Space: the fixtures show it only inside phrases; solve each phrase's length for it.
  const spaces: number[] = [];
  for (const ph of phrases) {
    const chars = [...ph.text];
    const last = glyphs[chars[chars.length - 1].codePointAt(0)!];
    if (!last) continue;
    let known = 0, nSpace = 0, ok = true;
    for (const ch of chars.slice(0, -1)) {
      if (ch === ' ') { nSpace++; continue; }
      const g = glyphs[ch.codePointAt(0)!];
      if (!g) { ok = false; break; }
      known += g[0];
    }
    if (!ok || !nSpace) continue;
    spaces.push(((ph.right - ph.x) / ph.h - known - last[2]) / nSpace);
  }
  if (spaces.length) {
    const sp = spaces.reduce((x, y) => x + y, 0) / spaces.length;
    glyphs[0x20] = [r4(sp), 0, 0, 0, 0];
  }
  const advBySize = samples.filter((s) => s.h !== 50).map((s) => `${String.fromCodePoint(s.cp)}@${s.h}: ${(s.advance / s.h).toFixed(4)}`);

  const out = `// Generated by renderer/fonts/measure/measure-font0.ts from the legacy renderer's reference PNGs
// (${samples.length} fixtures). Do not edit by hand; rerun the script.
// Advance ratios at other sizes, for reference: ${advBySize.join(', ')}

/** [advance, inkLeft, inkRight, inkTop, inkBottom] in units of the font height; y up from the baseline. */
export type GlyphBox = readonly [number, number, number, number, number];

export interface Font0Metrics {
  /** baseline below the cell top = a * h + b */
  baseline: readonly [number, number];
  /** Em size per dot of height, and the horizontal squeeze, for glyphs the table lacks. */
  emPerHeight: number;
  condense: number;
  glyphs: Readonly<Record<number, GlyphBox>>;
}

export const font0Metrics: Font0Metrics = {
  baseline: [${r4(a)}, ${r4(b)}],
  emPerHeight: 1.04,
  condense: 0.87,
  glyphs: {
${Object.entries(glyphs).sort((x, y) => +x[0] - +y[0]).map(([cp, v]) => `    ${cp}: [${v.join(', ')}], // ${String.fromCodePoint(+cp)}`).join('\n')}
  },
};
`;
  const target = path.resolve('renderer/fonts/font0-metrics.ts');
  writeFileSync(target, out);
  console.log(`wrote ${target}: ${Object.keys(glyphs).length} glyphs, baseline ${r4(a)} h + ${r4(b)}; sizes ${pts.map((p) => `${p[0]}:${p[1].toFixed(2)}`).join(' ')}`);
}

await main();
