// In-process render speed: real carrier labels at 8, 12 and 24 dpmm, as 8-bit PNG, 1-bit PNG, raster PDF and vector PDF.

import type { Dpmm, RenderRequest } from '../renderer/api.js';
import { render } from '../renderer/render.js';
import type { BenchLabel } from './labels.js';
import { median, peakRss, percentile, timed } from './stats.js';

export type BenchFormat = 'png8' | 'png1' | 'pdf' | 'pdfv';
export const FORMATS: readonly BenchFormat[] = ['png8', 'png1', 'pdf', 'pdfv'];
export const DENSITIES: readonly Dpmm[] = [8, 12, 24];

export interface Size {
  /** `native`: each label at its manifest size; otherwise every label cropped/padded to this size. */
  name: string;
  widthIn?: number;
  heightIn?: number;
}

export interface Figures {
  dpmm: Dpmm;
  format: BenchFormat;
  size: string;
  renders: number;
  medianMs: number;
  p95Ms: number;
  medianCpuMs: number;
  /** Median size of the encoded label. */
  medianBytes: number;
  /** Peak RSS of the process when this density finished. */
  peakRssBytes: number;
}

export function renderRequest(label: BenchLabel, dpmm: Dpmm, format: BenchFormat, size: Size): RenderRequest {
  return {
    dpmm,
    widthIn: size.widthIn ?? label.widthIn,
    heightIn: size.heightIn ?? label.heightIn,
    format: format === 'pdf' || format === 'pdfv' ? 'pdf' : 'png',
    index: 0,
    ...(format === 'png1' && { quality: 'bitonal' as const }),
    ...(format === 'pdf' && { pdf: 'raster' as const }),
  };
}

/** Rounds over every label; formats interleave per label so load changes hit them alike. */
export async function benchInProcess(
  labels: readonly BenchLabel[],
  opts: {
    densities: readonly Dpmm[];
    formats: readonly BenchFormat[];
    size: Size;
    rounds: (dpmm: Dpmm) => number;
    warmupRounds?: number;
  },
): Promise<Figures[]> {
  const out: Figures[] = [];
  for (const dpmm of opts.densities) {
    const wall = new Map<BenchFormat, number[]>(opts.formats.map((f) => [f, []]));
    const cpu = new Map<BenchFormat, number[]>(opts.formats.map((f) => [f, []]));
    const bytes = new Map<BenchFormat, number[]>(opts.formats.map((f) => [f, []]));
    // Warm-up: JIT, font and glyph caches (a long-running server has them too).
    for (let round = 0; round < (opts.warmupRounds ?? 1); round++) {
      for (const label of labels)
        for (const f of opts.formats) await render(label.zpl, renderRequest(label, dpmm, f, opts.size));
    }
    for (let round = 0; round < opts.rounds(dpmm); round++) {
      for (const label of labels) {
        for (const f of opts.formats) {
          const t = await timed(() => render(label.zpl, renderRequest(label, dpmm, f, opts.size)));
          wall.get(f)!.push(t.wallMs);
          cpu.get(f)!.push(t.cpuMs);
          bytes.get(f)!.push(t.value.body.length);
        }
      }
    }
    const peak = peakRss();
    for (const f of opts.formats) {
      const w = wall.get(f)!;
      out.push({
        dpmm,
        format: f,
        size: opts.size.name,
        renders: w.length,
        medianMs: median(w),
        p95Ms: percentile(w, 95),
        medianCpuMs: median(cpu.get(f)!),
        medianBytes: median(bytes.get(f)!),
        peakRssBytes: peak,
      });
    }
  }
  return out;
}
