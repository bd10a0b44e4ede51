// `node dist/bench/vector-pdf-f1.js [--manifest F] [--only S] [--min F1]`: every corpus case's vector PDF rasterised
// by poppler (pdftoppm) at the label's pixel size against our own PNG of it, ink F1 per case, mean and minimum.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_MANIFEST } from './corpus.js';
import { render } from '../renderer/render.js';
import { RenderError } from '../renderer/errors.js';
import type { Dpmm } from '../renderer/api.js';
import { inkF1 } from '../compare/ink-f1.js';
import { decodePng } from '../test/helpers/png.js';
import { rasterisePdf } from '../test/helpers/poppler.js';

interface Case {
  id: string;
  zpl: string;
  dpmm: Dpmm;
  widthIn: number;
  heightIn: number;
  index?: number;
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function main(): Promise<void> {
  const manifest = path.resolve(arg('manifest') ?? CORPUS_MANIFEST);
  const only = arg('only');
  const cases = (JSON.parse(readFileSync(manifest, 'utf8')) as Case[]).filter((c) => !only || c.id.includes(only));
  const scores: { id: string; f1: number }[] = [];
  for (const c of cases) {
    const zpl = readFileSync(path.join(path.dirname(manifest), c.zpl));
    const req = { dpmm: c.dpmm, widthIn: c.widthIn, heightIn: c.heightIn, index: c.index ?? 0 };
    let png: ReturnType<typeof decodePng>;
    try {
      png = decodePng((await render(zpl, { ...req, format: 'png' })).body);
    } catch (e) {
      if (e instanceof RenderError) continue;
      throw e;
    }
    const pdf = (await render(zpl, { ...req, format: 'pdf' })).body;
    const f1 = inkF1(
      { width: png.width, height: png.height, grey: png.gray },
      rasterisePdf(pdf, png.width, png.height),
    );
    scores.push({ id: c.id, f1 });
  }
  scores.sort((a, b) => a.f1 - b.f1);
  for (const s of scores.slice(0, Number(arg('worst') ?? 10))) console.log(`${s.f1.toFixed(4)}  ${s.id}`);
  const mean = scores.reduce((a, s) => a + s.f1, 0) / Math.max(1, scores.length);
  console.log(
    `vector PDF vs PNG: mean ink F1 ${mean.toFixed(4)}, min ${scores[0]?.f1.toFixed(4)} over ${scores.length} cases; ` +
      `${scores.filter((s) => s.f1 < 0.98).length} below 0.98`,
  );
  const min = arg('min');
  if (min && scores.some((s) => s.f1 < Number(min))) process.exitCode = 1;
}

await main();
