// The same labels through zpl-renderer-js (zebrash compiled to WebAssembly), for the speed ratio.
// A dev dependency, loaded only here; shipped code never imports it.

import type { Dpmm } from '../renderer/api.js';
import type { BenchLabel } from './labels.js';
import { median, percentile, timed } from './stats.js';

export interface PeerFigures {
  dpmm: Dpmm;
  renders: number;
  failures: number;
  medianMs: number;
  p95Ms: number;
}

type ZplToPng = (zpl: string, widthMm?: number, heightMm?: number, dpmm?: number) => Promise<string>;

export async function loadPeer(): Promise<ZplToPng | undefined> {
  try {
    const mod = (await import('zpl-renderer-js')) as { ready: Promise<{ api: { zplToBase64Async: ZplToPng } }> };
    const { api } = await mod.ready;
    return api.zplToBase64Async.bind(api);
  } catch {
    return undefined;
  }
}

export async function benchPeer(
  zplToPng: ZplToPng,
  labels: readonly BenchLabel[],
  densities: readonly Dpmm[],
  rounds: number,
): Promise<PeerFigures[]> {
  const out: PeerFigures[] = [];
  for (const dpmm of densities) {
    const samples: number[] = [];
    let failures = 0;
    const once = async (label: BenchLabel): Promise<number> => {
      const zpl = label.zpl.toString('latin1');
      const t = await timed(() =>
        zplToPng(zpl, label.widthIn * 25.4, label.heightIn * 25.4, dpmm).catch(() => undefined),
      );
      if (t.value === undefined) failures++;
      return t.wallMs;
    };
    await once(labels[0]); // warm-up
    failures = 0;
    for (let round = 0; round < rounds; round++) for (const label of labels) samples.push(await once(label));
    out.push({ dpmm, renders: samples.length, failures, medianMs: median(samples), p95Ms: percentile(samples, 95) });
  }
  return out;
}
