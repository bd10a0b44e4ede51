// ^GF in each encoding, through render() with the PNG decoded: every bitmap below is worked out by hand
// from the ZPL II rules (hex digits, G..Y / g..z repeat counts, `,` `!` `:` row fills, binary, Z64, B64).

import { expect } from 'chai';
import { deflateSync } from 'node:zlib';
import { crc16Xmodem } from '../renderer/decode/grf.js';
import { inkRows, renderLabel } from './helpers/label.js';

const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** Bits of a byte row as `#`/`.`, the way the printer lays them out (MSB left). */
const bits = (...bytes: number[]) =>
  bytes
    .map((b) => b.toString(2).padStart(8, '0'))
    .join('')
    .replace(/1/g, '#')
    .replace(/0/g, '.');

/** A ^GF that starts at (10,10), with the window one dot larger on each side to prove nothing leaks. */
const framed = (rows: string[]) => rows.map((r) => `.${r}.`);
const blank = (w: number) => '.'.repeat(w + 2);

describe('^GF graphic fields', () => {
  it('draws plain ASCII hex, one set bit per ink dot, MSB first', async () => {
    const got = await inkRows('^XA^FO10,10^GFA,4,4,2,F00F81FF^FS^XZ', 9, 9, 18, 4);
    expect(got).to.deep.equal([blank(16), ...framed([bits(0xf0, 0x0f), bits(0x81, 0xff)]), blank(16)]);
  });

  it('expands repeat counts G..Y (1..19) and g..z (multiples of 20), adding them up', async () => {
    // 10 bytes (20 digits) a row. Row 0: I=3 "FFF", G=1 "0", P=10 zeros, `,` zeros the last 6 digits.
    // Row 1: g=20 "F". Row 2: P+K = 15 "F", K = 5 "A". Row 3: H = 2 "8", X = 18 zeros.
    const zpl = '^XA^FO10,10^GFA,40,40,10,IFG0P0,gFPKFKAH8X0^FS^XZ';
    const got = await inkRows(zpl, 9, 9, 82, 6);
    const ff = (n: number) => Array<number>(n).fill(0xff);
    expect(got).to.deep.equal([
      blank(80),
      ...framed([
        bits(0xff, 0xf0, 0, 0, 0, 0, 0, 0, 0, 0),
        bits(...ff(10)),
        bits(...ff(7), 0xfa, 0xaa, 0xaa),
        bits(0x88, 0, 0, 0, 0, 0, 0, 0, 0, 0),
      ]),
      blank(80),
    ]);
  });

  it('fills the rest of a row with `,` (zeros) and `!` (ones) and repeats the previous row with `:`', async () => {
    const zpl = '^XA^FO10,10^GFA,10,10,2,8,C!:,:^FS^XZ';
    const got = await inkRows(zpl, 9, 9, 18, 7);
    expect(got).to.deep.equal([
      blank(16),
      ...framed([bits(0x80, 0x00), bits(0xcf, 0xff), bits(0xcf, 0xff), bits(0, 0), bits(0, 0)]),
      blank(16),
    ]);
  });

  it('takes B (binary) data byte for byte, even bytes that look like commands', async () => {
    const zpl = new Uint8Array([...latin1('^XA^FO10,10^GFB,3,3,1,'), 0xa5, 0x5e, 0x2c, ...latin1('^FS^XZ')]);
    const got = await inkRows(zpl, 9, 9, 10, 5);
    expect(got).to.deep.equal([blank(8), ...framed([bits(0xa5), bits(0x5e), bits(0x2c)]), blank(8)]);
  });

  it('inflates a :Z64: payload and decodes a :B64: one', async () => {
    const data = Buffer.from([0x3c, 0x42, 0x81]);
    const z64 = deflateSync(data).toString('base64');
    const b64 = data.toString('base64');
    const crc = (s: string) => crc16Xmodem(latin1(s)).toString(16).toUpperCase().padStart(4, '0');
    const expected = [blank(8), ...framed([bits(0x3c), bits(0x42), bits(0x81)]), blank(8)];
    for (const [tag, body] of [
      ['Z64', z64],
      ['B64', b64],
    ]) {
      const r = await renderLabel(`^XA^FO10,10^GFA,3,3,1,:${tag}:${body}:${crc(body)}^FS^XZ`);
      expect(r.warnings, tag).to.deep.equal([]);
      expect(await inkRows(`^XA^FO10,10^GFA,3,3,1,:${tag}:${body}:${crc(body)}^FS^XZ`, 9, 9, 10, 5), tag).to.deep.equal(
        expected,
      );
    }
  });

  it('computes CRC-16/XMODEM as Zebra does (check value of "123456789")', () => {
    expect(crc16Xmodem(latin1('123456789'))).to.equal(0x31c3);
  });

  it('reports a Z64 payload with a bad CRC at the CRC bytes, and still draws it', async () => {
    const body = deflateSync(Buffer.from([0xff])).toString('base64');
    const good = crc16Xmodem(latin1(body));
    const bad = ((good + 1) & 0xffff).toString(16).toUpperCase().padStart(4, '0');
    const zpl = `^XA^FO10,10^GFA,1,1,1,:Z64:${body}:${bad}^FS^XZ`;
    const r = await renderLabel(zpl);
    const crcAt = zpl.lastIndexOf(':') + 1;
    expect(r.warnings).to.have.length(1);
    expect(r.warnings[0]).to.include({ command: '^GF', param: 5, byteIndex: crcAt, byteSize: 4 });
    expect(await inkRows(zpl, 9, 9, 10, 3)).to.deep.equal([blank(8), framed([bits(0xff)])[0], blank(8)]);
  });

  it('reports short and long payloads where the data is', async () => {
    const short = '^XA^FO10,10^GFA,4,4,2,FF^FS^XZ';
    const rs = await renderLabel(short);
    expect(rs.warnings.map((w) => [w.command, w.param, w.byteIndex, w.byteSize])).to.deep.equal([
      ['^GF', 5, short.indexOf('FF^'), 2],
    ]);
    // Fewer bytes than declared: the legacy service draws nothing.
    expect(await inkRows(short, 9, 9, 18, 4)).to.deep.equal([
      blank(16),
      ...framed([bits(0, 0), bits(0, 0)]),
      blank(16),
    ]);

    const long = '^XA^FO10,10^GFA,2,2,2,FFFF00^FS^XZ';
    const rl = await renderLabel(long);
    expect(rl.warnings.map((w) => [w.command, w.param, w.byteIndex, w.byteSize])).to.deep.equal([
      ['^GF', 5, long.indexOf('00^'), 2],
    ]);
  });

  it('places a ^FT graphic by its bottom-left corner and xors it under ^FR', async () => {
    const ft = await inkRows('^XA^FT10,12^GFA,2,2,1,FF81^FS^XZ', 10, 10, 8, 2);
    expect(ft).to.deep.equal([bits(0xff), bits(0x81)]);
    const fr = await inkRows('^XA^FO10,10^GB8,2,2^FS^FO10,10^FR^GFA,2,2,1,F0F0^FS^XZ', 10, 10, 8, 2);
    expect(fr).to.deep.equal([bits(0x0f), bits(0x0f)]);
  });

  it('refuses a graphic over the 2 MB object budget as a too-large render error', async () => {
    let err: unknown;
    try {
      await renderLabel('^XA^FO0,0^GFA,3000000,3000000,100,FF^FS^XZ');
    } catch (e) {
      err = e;
    }
    expect(err).to.have.property('code', 'too-large');
  });
});
