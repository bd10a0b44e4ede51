// Renderer-level linter behaviour; the exact X-Warnings value of each fault is tested over HTTP in linter-http.test.ts.

import { expect } from 'chai';
import { render } from '../renderer/render.js';
import { at } from './helpers/offsets.js';

/** Renders and returns the warnings as `{byteIndex}|{byteSize}|{command}|{param}|{message}` lines. */
async function lint(zpl: string): Promise<string[]> {
  const r = await render(zpl, { dpmm: 8, widthIn: 2, heightIn: 2, format: 'png', index: 0 });
  return r.warnings.map((w) => `${w.byteIndex}|${w.byteSize}|${w.command}|${w.param || ''}|${w.message}`);
}

describe('linter diagnostics (renderer)', () => {
  it('reports in evaluation order, not byte order', async () => {
    const z = 'x^XA^QQ^FO-1,0^XZ';
    expect((await lint(z)).map((l) => l.split('|')[0])).to.deep.equal(['0', String(at(z, '^QQ')), String(at(z, '-1'))]);
  });

  it('reports a fault inside a stored format where the format recalls it, at the stored bytes', async () => {
    const z = '^XA^DFR:T.ZPL^FS^FO1,1^GB5,99999^FS^XZ^XA^XFR:T.ZPL^FS^XZ';
    expect(await lint(z)).to.deep.equal([
      `${at(z, '99999')}|5|^GB|2|Value 99999 is greater than maximum value 32000; used 32000 instead`,
    ]);
  });

  it('reports a fault once, however many copies of the label are drawn', async () => {
    const z = '^XA^FO10,10^BEN,50,Y,N^FDABC^FS^PQ3^XZ';
    const r = await render(z, { dpmm: 8, widthIn: 2, heightIn: 2, format: 'pdf' });
    expect(r.pages).to.equal(3);
    expect(r.warnings.map((w) => `${w.byteIndex}|${w.byteSize}|${w.command}|${w.message}`)).to.deep.equal([
      `${at(z, 'ABC')}|3|^BE|Field data cannot be encoded by EAN-13; nothing printed`,
    ]);
  });

  it('reports nothing for a clean label', async () => {
    expect(await lint('^XA\n^FO10,10^GB100,100,3^FS\n^XZ\n')).to.deep.equal([]);
  });

  it('observes only: a label renders the same pixels with and without faults that are clamped', async () => {
    const opts = { dpmm: 8 as const, widthIn: 2, heightIn: 2, format: 'png' as const, index: 0 };
    const a = await render('^XA^FO10,10^GB50,40000,2^FS^XZ', opts);
    const b = await render('^XA^FO10,10^GB50,32000,2^FS^XZ', opts);
    expect(Buffer.compare(Buffer.from(a.body), Buffer.from(b.body))).to.equal(0);
  });
});
