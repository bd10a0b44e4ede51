// zpl-renderer-js on the carrier labels in a process of its own: `node peer-child.js <rounds>` prints JSON
// (PeerSamples[]): process CPU ms per render at 4x6 in, 8 dpmm (COST_REQUEST's size), after one warm-up pass.

import { COST_REQUEST, loadLabels } from './labels.js';
import { loadPeer } from './peer.js';
import { timed } from './stats.js';

export interface PeerSamples {
  id: string;
  cpuMs: number[];
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 3);
  const zplToPng = await loadPeer();
  if (!zplToPng) throw new Error('zpl-renderer-js is not installed');
  const labels = loadLabels('carrier');
  const once = (zpl: string) =>
    zplToPng(zpl, COST_REQUEST.widthIn! * 25.4, COST_REQUEST.heightIn! * 25.4, COST_REQUEST.dpmm).catch(() => '');
  for (const label of labels) await once(label.zpl.toString('latin1'));
  const out: PeerSamples[] = labels.map((l) => ({ id: l.id, cpuMs: [] }));
  for (let round = 0; round < rounds; round++)
    for (const [i, label] of labels.entries())
      out[i]!.cpuMs.push((await timed(() => once(label.zpl.toString('latin1')))).cpuMs);
  process.stdout.write(JSON.stringify(out));
}

await main();
