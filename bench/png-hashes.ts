// `npm run png-hashes -- [--pixels] [--vector] [--manifest FILE] [--out FILE] [--compare FILE] [--only SUBSTR]`: SHA-256
// of the PNG of every corpus case at rotations 0/90/180/270 in both qualities, plus the page count and hash of its raster
// PDF; `--vector` adds its vector PDF (one page per label, and on a 2x2 sheet) and its raster PDF on a 2x2 sheet. A
// drawing refactor compares against a baseline saved before it: every hash must stay the same (hashes missing from the
// baseline are counted, not compared).
// `--pixels` hashes what a PNG decodes to (jimp's decoder: width, height, bit depth, colour type and the RGBA pixels)
// instead of its bytes, for an encoder change that may change the bytes but never the pixels.

import { createHash } from 'node:crypto';
import { Jimp } from 'jimp';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_MANIFEST } from './corpus.js';
import { render } from '../renderer/render.js';
import { RenderError } from '../renderer/errors.js';
import type { Dpmm, RenderRequest, Rotation } from '../renderer/api.js';

interface Case {
  id: string;
  zpl: string;
  dpmm: Dpmm;
  widthIn: number;
  heightIn: number;
  index?: number;
}

const ROTATIONS: Rotation[] = [0, 90, 180, 270];
const QUALITIES = ['grayscale', 'bitonal'] as const;
const SHEET = { columns: 2, rows: 2, align: 'justify', verticalAlign: 'center', border: 'dashed' } as const;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex').slice(0, 24);

/** IHDR sits right after the 8-byte signature: length, type, width, height, bit depth, colour type. */
async function pixelHash(png: Uint8Array): Promise<string> {
  const image = await Jimp.read(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
  const { width, height, data } = image.bitmap;
  const header = `${width}x${height} depth ${png[24]} colour ${png[25]}`;
  return createHash('sha256').update(header).update(data).digest('hex').slice(0, 24);
}

async function outcome(zpl: Uint8Array, req: RenderRequest, pixels = false): Promise<{ hash: string; pages: number }> {
  try {
    const r = await render(zpl, req);
    return { hash: pixels && req.format === 'png' ? await pixelHash(r.body) : sha(r.body), pages: r.pages };
  } catch (e) {
    if (e instanceof RenderError) return { hash: `error:${e.code}`, pages: 0 };
    throw e;
  }
}

async function main(): Promise<void> {
  const manifest = path.resolve(arg('manifest') ?? CORPUS_MANIFEST);
  const only = arg('only');
  const vector = process.argv.includes('--vector');
  const pixels = process.argv.includes('--pixels');
  const cases = (JSON.parse(readFileSync(manifest, 'utf8')) as Case[]).filter((c) => !only || c.id.includes(only));
  const out: Record<string, Record<string, string | number>> = {};
  for (const c of cases) {
    const zpl = readFileSync(path.join(path.dirname(manifest), c.zpl));
    const base = { dpmm: c.dpmm, widthIn: c.widthIn, heightIn: c.heightIn };
    const row: Record<string, string | number> = {};
    for (const rotation of ROTATIONS) {
      for (const quality of QUALITIES) {
        row[`png-${rotation}-${quality}`] = (
          await outcome(zpl, { ...base, format: 'png', index: c.index ?? 0, rotation, quality }, pixels)
        ).hash;
      }
    }
    // The raster PDF of every label; `pdf` is ignored by renderers that only have the raster one.
    const pdf = await outcome(zpl, { ...base, format: 'pdf', pdf: 'raster' } as RenderRequest);
    row['pdf-raster'] = pdf.hash;
    row['pdf-pages'] = pdf.pages;
    if (vector) {
      row['pdf-vector'] = (await outcome(zpl, { ...base, format: 'pdf' })).hash;
      row['pdf-vector-sheet'] = (await outcome(zpl, { ...base, format: 'pdf', page: SHEET })).hash;
      row['pdf-raster-sheet'] = (await outcome(zpl, { ...base, format: 'pdf', pdf: 'raster', page: SHEET })).hash;
    }
    out[c.id] = row;
  }
  const save = arg('out');
  if (save) writeFileSync(save, JSON.stringify(out, null, 1));
  const against = arg('compare');
  const what = pixels ? 'decoded pixels' : 'bytes';
  if (!against) {
    console.log(`${cases.length} cases hashed (PNG ${what})${save ? ` into ${save}` : ''}`);
    return;
  }
  const base = JSON.parse(readFileSync(against, 'utf8')) as typeof out;
  let same = 0,
    differ = 0,
    missing = 0,
    unknown = 0;
  for (const [id, row] of Object.entries(out)) {
    const was = base[id];
    if (!was) {
      missing++;
      continue;
    }
    for (const [k, v] of Object.entries(row)) {
      if (!(k in was)) unknown++;
      else if (was[k] === v) same++;
      else {
        differ++;
        console.log(`DIFFERS ${id} ${k}: ${was[k]} -> ${v}`);
      }
    }
  }
  console.log(
    `PNG ${what}: ${same} hashes identical, ${differ} differ, ${missing} cases not in the baseline, ${unknown} hashes not in it (${cases.length} cases)`,
  );
  if (differ || missing) process.exitCode = 1;
}

await main();
