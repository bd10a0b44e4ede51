// A render on the main thread runs in slices (renderer/steps.ts): renders that pause take turns on one thread, and
// each must draw exactly what it draws run through at once, whatever state the thread's encoder and rasters share.

import { expect } from 'chai';
import type { RenderRequest } from '../renderer/api.js';
import { render } from '../renderer/render.js';
import { withTurnsCounted } from './helpers/event-loop-turns.js';

/** A label of many fields (so laying out and painting pause), `width` dots wide (odd: the encoder copies its rows). */
function busyLabel(seed: number): string {
  const fields = Array.from(
    { length: 120 },
    (_, i) => `^FO${(i * 37 + seed * 11) % 700},${(i * 53 + seed) % 1100}^A0N,${20 + (i % 5) * 6},20^FD${seed}-${i}^FS`,
  );
  return `^XA^FO0,0^GB${200 + seed},${300 + seed},${3 + seed}^FS${fields.join('')}^BY2^FO40,1150^BCN,60^FD${seed}0042^FS^XZ`;
}

const REQUESTS: Array<[string, RenderRequest]> = [
  ['grey PNG, a width off the word', { dpmm: 8, widthIn: 3.3, heightIn: 6, format: 'png', index: 0 }],
  ['bitonal PNG', { dpmm: 8, widthIn: 4, heightIn: 6, format: 'png', index: 0, quality: 'bitonal' }],
  ['grey PNG turned', { dpmm: 8, widthIn: 4, heightIn: 6, format: 'png', index: 0, rotation: 90 }],
  ['raster PDF', { dpmm: 8, widthIn: 4, heightIn: 6, format: 'pdf', pdf: 'raster' }],
  ['EPL job', { dpmm: 8, widthIn: 4, heightIn: 6, format: 'epl' }],
];

describe('renders in slices on the main thread', () => {
  for (const [name, req] of REQUESTS) {
    it(`${name}: three at once, pausing at every checkpoint, each as drawn run through`, async () => {
      const docs = [1, 2, 3].map((seed) => `${busyLabel(seed)}`.replace('^XZ', seed === 2 ? '^PQ2^XZ' : '^XZ'));
      const whole: Array<{ body: Uint8Array }> = [];
      for (const zpl of docs) whole.push(await render(zpl, req, { sliceMs: Number.POSITIVE_INFINITY }));
      const { result: sliced, turns } = await withTurnsCounted(() =>
        Promise.all(docs.map((zpl) => render(zpl, req, { sliceMs: 0 }))),
      );
      expect(turns, 'the renders paused').to.be.greaterThan(6);
      sliced.forEach((r, i) => {
        expect(Buffer.from(r.body).equals(Buffer.from(whole[i]!.body)), `document ${i + 1}`).to.equal(true);
      });
    });
  }
});
