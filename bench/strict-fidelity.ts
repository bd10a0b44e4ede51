// Strict fidelity: ink F1 with no tolerance (a pixel matches only where the other image has ink at the same
// pixel) and the count of labels whose ink is pixel-identical, over the fixture manifest. The tolerant scorer
// (../shared/tools/zpl-fidelity.mjs) forgives one-pixel shifts; this line shows stroke weight and baselines.
//
//   node dist/bench/strict-fidelity.js [--group G] [--only SUBSTR] [--json FILE] [--manifest FILE]
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { renderPng } from '../renderer/render-png.js';
import type { Dpmm } from '../renderer/index.js';

interface Case { id: string; zpl: string; png: string; dpmm: Dpmm; widthIn: number; heightIn: number; index?: number; group?: string; referenceCrop?: { width: number; height: number } }
interface Gray { width: number; height: number; gray: Uint8Array }
interface Strict { id: string; group: string; f1: number; identical: boolean; inkIdentical: boolean; inkRef: number; inkGot: number }

const args = process.argv.slice(2);
const opt = (name: string): string | undefined => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : undefined; };
const fixtures = process.env.BENCH_FIXTURES ?? path.resolve('..', 'shared', 'fixtures');
const manifestPath = path.resolve(opt('--manifest') ?? path.join(fixtures, 'manifest.json'));
const baseDir = path.dirname(manifestPath);
// The scorer's own PNG reader: it decodes every colour type the references use.
const pnglite = await import(pathToFileURL(path.join(fixtures, '..', 'tools', 'pnglite.mjs')).href) as { decodePng(b: Buffer): Gray };

function crop(img: Gray, c: Case['referenceCrop']): Gray {
  if (!c) return img;
  const gray = new Uint8Array(c.width * c.height);
  for (let y = 0; y < c.height; y++) gray.set(img.gray.subarray(y * img.width, y * img.width + c.width), y * c.width);
  return { width: c.width, height: c.height, gray };
}

type Scores = Omit<Strict, 'id' | 'group'>;

/** `identical`: every grey byte equal; `inkIdentical`: equal after the 50% threshold. */
export function strictCompare(ref: Gray, got: Gray): Scores {
  if (ref.width !== got.width || ref.height !== got.height) return { f1: 0, identical: false, inkIdentical: false, inkRef: 0, inkGot: 0 };
  let inkRef = 0, inkGot = 0, both = 0, sameGrey = 0;
  for (let i = 0; i < ref.gray.length; i++) {
    if (ref.gray[i] === got.gray[i]) sameGrey++;
    const a = ref.gray[i] < 128 ? 1 : 0, b = got.gray[i] < 128 ? 1 : 0;
    inkRef += a; inkGot += b; both += a & b;
  }
  const recall = inkRef ? both / inkRef : 1, precision = inkGot ? both / inkGot : 1;
  const f1 = recall + precision ? (2 * recall * precision) / (recall + precision) : 0;
  return { f1, identical: sameGrey === ref.gray.length, inkIdentical: both === inkRef && both === inkGot, inkRef, inkGot };
}

const group = opt('--group'), only = opt('--only');
const cases = (JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Case[])
  .filter((c) => c.png && (!group || c.group === group) && (!only || c.id.includes(only)));
const results: Strict[] = [];
for (const c of cases) {
  let r: Strict;
  try {
    const png = await renderPng(fs.readFileSync(path.join(baseDir, c.zpl)), { dpmm: c.dpmm, widthIn: c.widthIn, heightIn: c.heightIn, index: c.index ?? 0 });
    const ref = crop(pnglite.decodePng(fs.readFileSync(path.join(baseDir, c.png))), c.referenceCrop);
    r = { id: c.id, group: c.group ?? '-', ...strictCompare(ref, pnglite.decodePng(Buffer.from(png))) };
  } catch {
    r = { id: c.id, group: c.group ?? '-', f1: 0, identical: false, inkIdentical: false, inkRef: 0, inkGot: 0 };
  }
  results.push(r);
}
const json = opt('--json');
if (json) fs.writeFileSync(json, JSON.stringify(results, null, 1));
const line = (name: string, rs: Strict[]): string =>
  `strict ${name.padEnd(9)} ink F1 ${(rs.reduce((s, r) => s + r.f1, 0) / rs.length).toFixed(4)}  identical ${rs.filter((r) => r.identical).length} of ${rs.length} (ink ${rs.filter((r) => r.inkIdentical).length})` +
  `  ink ${(100 * rs.reduce((s, r) => s + r.inkGot, 0) / Math.max(1, rs.reduce((s, r) => s + r.inkRef, 0))).toFixed(2)}% of reference`;
for (const g of [...new Set(results.map((r) => r.group))].sort()) console.log(line(g, results.filter((r) => r.group === g)));
console.log(line('all', results));
