// Measures how heavy and where font 0 text at large sizes is against the legacy renderer's reference PNGs.
// Run after `tsc`: node dist/tools/measure/measure-font0-weight.js [--min-height 60] [--all] [manifest.json]
// Decodes the reference PNGs with compare/png.ts at measure time only (never at render time).
//
// Every upright ^A0 glyph run of at least --min-height dots whose box no other element touches is compared window by
// window: ink (coverage summed, and pixels at or above half grey), the legacy's extra ink per horizontal ink run of
// ours (what strokeWiden(h) should add, in dots: each run of a filled row grows by the widening), the mean width of
// those runs, and the vertical offset (legacy minus ours: ink-weighted centroid, top and bottom ink edges, and the
// whole-row shift that matches best). Cases whose windows disagree beyond a shift (other text, F1 < 0.8) are left out.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { layout } from '../../renderer/layout/inspect.js';
import { render } from '../../renderer/render.js';
import type { Dpmm } from '../../renderer/api.js';
import { decodeReference, ink, type Gray } from './ink.js';

interface Case {
  id: string;
  zpl: string;
  png?: string;
  group: string;
  dpmm: Dpmm;
  widthIn: number;
  heightIn: number;
  index?: number;
  referenceCrop?: { width: number; height: number };
}
interface Window {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Ink of a window: coverage summed, pixels at half grey or darker, their horizontal runs, and the edges and centroid of rows. */
function inkOf(img: Gray, w: Window) {
  let coverage = 0,
    pixels = 0,
    runs = 0,
    rowMoment = 0,
    top = Infinity,
    bottom = -Infinity;
  for (let y = w.y0; y < w.y1; y++) {
    let on = false;
    for (let x = w.x0; x < w.x1; x++) {
      const c = ink(img, x, y);
      coverage += c;
      rowMoment += c * (y + 0.5);
      const dark = c >= 0.5;
      if (dark) {
        pixels++;
        if (!on) runs++;
      }
      on = dark;
      if (c > 0.02) {
        top = Math.min(top, y + 1 - c);
        bottom = Math.max(bottom, y + c);
      }
    }
  }
  return { coverage, pixels, runs, centroid: coverage ? rowMoment / coverage : NaN, top, bottom };
}

/** Thresholded ink F1 (one pixel of tolerance) of ours shifted down by `dy` rows against the reference. */
function windowF1(ref: Gray, ours: Gray, w: Window, dy: number, tolerance = 1): number {
  const dark = (img: Gray, x: number, y: number) =>
    x >= 0 && y >= 0 && x < img.width && y < img.height && ink(img, x, y) >= 0.5;
  const near = (img: Gray, x: number, y: number) => {
    for (let a = -tolerance; a <= tolerance; a++)
      for (let b = -tolerance; b <= tolerance; b++) if (dark(img, x + b, y + a)) return true;
    return false;
  };
  let rInk = 0,
    rHit = 0,
    oInk = 0,
    oHit = 0;
  for (let y = w.y0; y < w.y1; y++)
    for (let x = w.x0; x < w.x1; x++) {
      if (dark(ref, x, y)) {
        rInk++;
        if (near(ours, x, y - dy)) rHit++;
      }
      if (dark(ours, x, y - dy)) {
        oInk++;
        if (near(ref, x, y)) oHit++;
      }
    }
  const p = oInk ? oHit / oInk : 0,
    r = rInk ? rHit / rInk : 0;
  return p + r ? (2 * p * r) / (p + r) : 0;
}

function overlaps(a: Window, b: Window): boolean {
  return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const minHeight = Number(flag('--min-height') ?? 60);
const all = args.includes('--all');
if (all) args.splice(args.indexOf('--all'), 1);
const manifest = args[0] ?? path.resolve(import.meta.dirname, '../../../corpus/manifest.json');
const base = path.dirname(manifest);
const cases = (JSON.parse(readFileSync(manifest, 'utf8')) as Case[]).filter((c) => c.png);

interface Row {
  id: string;
  h: number;
  text: string;
  legacy: ReturnType<typeof inkOf>;
  ours: ReturnType<typeof inkOf>;
  shift: number;
  f1: number;
}
const rows: Row[] = [];
for (const c of cases) {
  const zpl = readFileSync(path.join(base, c.zpl));
  const opts = { dpmm: c.dpmm, widthIn: c.widthIn, heightIn: c.heightIn, index: c.index ?? 0 };
  let laid: ReturnType<typeof layout>;
  try {
    laid = layout(zpl, opts);
  } catch {
    continue;
  }
  if (laid.mirror || laid.invert) continue;
  const runs = laid.elements.flatMap((e, i) => {
    if (e.kind !== 'glyphRun' || !e.font.startsWith('0:') || e.orientation !== 'N' || e.ink !== 'normal') return [];
    const h = Number(e.font.split(':')[1]);
    return h >= minHeight ? [{ i, e, h }] : [];
  });
  if (!runs.length) continue;
  const ref = await decodeReference(readFileSync(path.join(base, c.png!)));
  const ours = await decodeReference(Buffer.from((await render(zpl, { ...opts, format: 'png' })).body));
  if (ref.width < ours.width || ref.height < ours.height) continue;
  const boxes = laid.elements.map((e) => ({
    x0: Math.floor(e.box.x),
    y0: Math.floor(e.box.y),
    x1: Math.ceil(e.box.x + e.box.width),
    y1: Math.ceil(e.box.y + e.box.height),
  }));
  for (const { i, e, h } of runs) {
    const b = boxes[i]!,
      m = Math.max(3, Math.ceil(h * 0.05));
    const w = {
      x0: Math.max(0, b.x0 - m),
      y0: Math.max(0, b.y0 - m),
      x1: Math.min(ours.width, b.x1 + m),
      y1: Math.min(ours.height, b.y1 + m),
    };
    if (boxes.some((o, j) => j !== i && overlaps(o, w))) continue;
    let shift = 0,
      f1 = -1;
    for (let dy = -3; dy <= 3; dy++) {
      const s = windowF1(ref, ours, w, dy, 0);
      if (s > f1 + 1e-9 || (Math.abs(s - f1) <= 1e-9 && Math.abs(dy) < Math.abs(shift))) {
        f1 = s;
        shift = dy;
      }
    }
    const tolerant = windowF1(ref, ours, w, 0);
    if (!all && tolerant < 0.8) continue;
    rows.push({ id: c.id, h, text: e.text, legacy: inkOf(ref, w), ours: inkOf(ours, w), shift, f1: tolerant });
  }
}

const f = (n: number, d = 2) => (Number.isFinite(n) ? n.toFixed(d) : '-');
const widenOf = (r: Row) => (r.legacy.coverage - r.ours.coverage) / Math.max(1, r.ours.runs);
console.log(
  'case                                         h  text             ink%cov ink%px  widen  run(legacy/ours)  dCentroid dTop dBottom shift F1',
);
for (const r of rows.sort((a, b) => a.h - b.h || a.id.localeCompare(b.id))) {
  console.log(
    `${r.id
      .replace(/^.*?\//, '')
      .slice(0, 42)
      .padEnd(42)} ${String(r.h).padStart(4)}  ${r.text.slice(0, 15).padEnd(15)} ` +
      `${f((100 * r.legacy.coverage) / r.ours.coverage, 1).padStart(6)} ${f((100 * r.legacy.pixels) / r.ours.pixels, 1).padStart(6)} ${f(widenOf(r)).padStart(6)}  ` +
      `${f(r.legacy.coverage / Math.max(1, r.legacy.runs))}/${f(r.ours.coverage / Math.max(1, r.ours.runs))}`.padEnd(
        18,
      ) +
      ` ${f(r.legacy.centroid - r.ours.centroid).padStart(8)} ${f(r.legacy.top - r.ours.top).padStart(5)} ${f(r.legacy.bottom - r.ours.bottom).padStart(6)} ${String(r.shift).padStart(4)}  ${f(r.f1, 3)}`,
  );
}

// By size band: ink summed over the band's windows, widening per run of ours.
console.log('\nband          windows  ink%cov ink%px  widen  dCentroid(mean)  shift(mean)');
const bands: [number, number][] = [
  [minHeight, 70],
  [70, 90],
  [90, 110],
  [110, 140],
  [140, 1000],
];
for (const [lo, hi] of bands) {
  const rs = rows.filter((r) => r.h >= lo && r.h < hi);
  if (!rs.length) continue;
  const sum = (pick: (r: Row) => number) => rs.reduce((t, r) => t + pick(r), 0);
  console.log(
    `${`${lo}-${hi - 1}`.padEnd(13)} ${String(rs.length).padStart(7)}  ${f((100 * sum((r) => r.legacy.coverage)) / sum((r) => r.ours.coverage), 1).padStart(6)} ` +
      `${f((100 * sum((r) => r.legacy.pixels)) / sum((r) => r.ours.pixels), 1).padStart(6)} ${f((sum((r) => r.legacy.coverage) - sum((r) => r.ours.coverage)) / sum((r) => r.ours.runs)).padStart(6)}  ` +
      `${f(sum((r) => r.legacy.centroid - r.ours.centroid) / rs.length).padStart(15)}  ${f(sum((r) => r.shift) / rs.length).padStart(11)}`,
  );
}
