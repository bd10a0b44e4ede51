import { expect } from 'chai';
import { render } from '../renderer/render.js';

/** Renders and returns the warnings as `{byteIndex}|{byteSize}|{command}|{param}|{message}` lines. */
async function lint(zpl: string): Promise<string[]> {
  const r = await render(zpl, { dpmm: 8, widthIn: 2, heightIn: 2, format: 'png', index: 0 });
  return r.warnings.map((w) => `${w.byteIndex}|${w.byteSize}|${w.command}|${w.param || ''}|${w.message}`);
}

/** Byte offset of the n-th occurrence of `needle` in `hay`. */
function at(hay: string, needle: string, n = 0): number {
  let i = -1;
  for (let k = 0; k <= n; k++) i = hay.indexOf(needle, i + 1);
  if (i < 0) throw new Error(`${needle} not in ${hay}`);
  return Buffer.byteLength(hay.slice(0, i));
}

describe('linter diagnostics (renderer)', () => {
  const cases: Array<[string, string, (z: string) => string[]]> = [
    ['unknown command', '^XA^QQ12^XZ', (z) => [`${at(z, '^QQ')}|5|^QQ||Unknown command ^QQ; ignored`]],
    ['value below minimum', '^XA^FO10,10^GB-5,10^FS^XZ', (z) => [`${at(z, '-5')}|2|^GB|1|Value -5 is less than minimum value 0; used 0 instead`]],
    ['value above maximum', '^XA^FO10,10^GB10,40000^FS^XZ', (z) => [`${at(z, '40000')}|5|^GB|2|Value 40000 is greater than maximum value 32000; used 32000 instead`]],
    ['non-numeric value', '^XA^FOabc,10^GB10,10^FS^XZ', (z) => [`${at(z, 'abc')}|3|^FO|1|Invalid value abc; used 0 instead`]],
    ['invalid choice', '^XA^FO1,1^GB10,10,1,Q^FS^XZ', (z) => [`${at(z, 'Q^')}|1|^GB|4|Invalid value Q; used B instead`]],
    ['invalid yes/no', '^XA^PMX^XZ', (z) => [`${at(z, 'X^')}|1|^PM|1|Invalid value X; used N instead`]],
    ['^PQ of zero copies', '^XA^PQ0^XZ', (z) => [`${at(z, '0^XZ')}|1|^PQ|1|Value 0 is less than minimum value 1; used 1 instead`]],
    ['^CI out of range', '^XA^CI99^XZ', (z) => [`${at(z, '99')}|2|^CI|1|Value 99 is greater than maximum value 36; used 36 instead`]],
    ['^BY ratio out of range', '^XA^BY2,5.0,10^XZ', (z) => [`${at(z, '5.0')}|3|^BY|2|Value 5.0 is greater than maximum value 3; used 3 instead`]],
    ['^FW with a bad orientation', '^XA^FWX^XZ', (z) => [`${at(z, 'X^')}|1|^FW|1|Invalid value X; used default instead`]],
    ['^LH negative', '^XA^LH-5,0^XZ', (z) => [`${at(z, '-5')}|2|^LH|1|Value -5 is less than minimum value 0; used 0 instead`]],
    ['stray text before ^XA', 'hello\n^XA^XZ', () => ['0|5|||Ignored unrecognized content']],
    ['text after a command without parameters', '^XA junk ^XZ', (z) => [`${at(z, 'junk')}|4|^XA||Ignored unrecognized content`]],
    ['extra parameters', '^XA^PMY,7,8^XZ', (z) => [`${at(z, '7')}|3|^PM|2|Ignored extra parameters`]],
    ['missing ^XZ', '^XA^FO1,1^GB5,5^FS', () => ['0|0|||Missing ^XZ; label ended at end of input']],
    ['missing ^FS before the next field', '^XA^FO1,1^GB5,5^FO9,9^GB5,5^FS^XZ', (z) => [`${at(z, '^FO', 1)}|6|^FO||Missing ^FS; field ended by the next field origin`]],
    ['missing ^FS at ^XZ', '^XA^FO1,1^GB5,5^XZ', (z) => [`${at(z, '^FO')}|0|^FS||Missing ^FS; field ended by ^XZ`]],
    ['format command outside a label', '^FO1,1^XA^XZ', () => ['0|6|^FO||Command ^FO outside ^XA...^XZ; ignored']],
  ];
  for (const [name, zpl, expected] of cases) {
    it(`reports ${name} with its byte position`, async () => {
      expect(await lint(zpl)).to.deep.equal(expected(zpl));
    });
  }

  it('reports in evaluation order, not byte order', async () => {
    const z = 'x^XA^QQ^FO-1,0^XZ';
    expect((await lint(z)).map((l) => l.split('|')[0])).to.deep.equal(['0', String(at(z, '^QQ')), String(at(z, '-1'))]);
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
