// ^CI decoding of field bytes: each character set with real bytes, and through render().

import { expect } from 'chai';
import { render } from '../renderer/render.js';
import { decodeFieldText } from '../renderer/text/charset.js';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('^CI character sets', () => {
  it('reads bytes 0x80-0xFF as code page 850 under ^CI 0-13', () => {
    expect(decodeFieldText(bytes(0x81, 0x8e, 0x9c, 0xa6, 0xe1, 0xf8), 0)).to.equal('üÄ£ªß°');
    expect(decodeFieldText(bytes(0x81), 13)).to.equal('ü');
  });

  it('replaces the national positions of ^CI 0-12', () => {
    const ascii = bytes(0x23, 0x40, 0x5b, 0x5c, 0x5d, 0x5e, 0x60, 0x7b, 0x7c, 0x7d);
    const expected: Record<number, string> = {
      0: '#@[¢]^`{|}',
      1: '#@ ¢ ^`¼½¾',
      2: '£@[¢]^`{|}',
      3: 'ƒ§[Ĳ]^`{ĳ}',
      4: '#@ÆØÅ^`æøå',
      5: 'ÜÉÄÖÅÜéäöå',
      6: '#§ÄÖÜ^`äöü',
      7: '£à[ç]^`é|ù',
      8: '#àâçêîôéùè',
      9: '£§[çé^ùàòè',
      10: '#§¡Ñ¿^`{ñç',
      11: '£ÉÄÖÜ^äëïö',
      12: '#@[¥]^`{|}',
      13: '#@[\\]^`{|}',
    };
    for (const [ci, text] of Object.entries(expected))
      expect(decodeFieldText(ascii, Number(ci)), `^CI${ci}`).to.equal(text);
  });

  it('decodes Windows code pages 1252, 1250, 1251, 1253, 1254 and 1255', () => {
    expect(decodeFieldText(bytes(0x80, 0xc4, 0x5c), 27)).to.equal('€Ä\\');
    expect(decodeFieldText(bytes(0x8a), 31)).to.equal('Š');
    expect(decodeFieldText(bytes(0xc0), 33)).to.equal('А');
    expect(decodeFieldText(bytes(0xc1), 34)).to.equal('Α');
    expect(decodeFieldText(bytes(0xd0), 35)).to.equal('Ğ');
    expect(decodeFieldText(bytes(0xe0), 36)).to.equal('א');
  });

  it('decodes UTF-8 (28) and UTF-16 big (29) and little (30) endian', () => {
    expect(decodeFieldText(bytes(0xc3, 0x84, 0xe2, 0x82, 0xac), 28)).to.equal('Ä€');
    expect(decodeFieldText(bytes(0x00, 0xc4, 0x20, 0xac), 29)).to.equal('Ä€');
    expect(decodeFieldText(bytes(0xc4, 0x00, 0xac, 0x20), 30)).to.equal('Ä€');
  });

  it('draws the same label for Ä sent as UTF-8, code page 1252, code page 850 and ^FH', async () => {
    const png = async (zpl: Uint8Array) =>
      Buffer.from((await render(zpl, { dpmm: 8, widthIn: 2, heightIn: 1, format: 'png', index: 0 })).body);
    const field = (ci: string, data: number[]) =>
      Buffer.concat([Buffer.from(`^XA${ci}^FO20,20^A0N,40,40^FD`), Buffer.from(data), Buffer.from('^FS^XZ')]);
    const utf8 = await png(field('^CI28', [0xc3, 0x84]));
    expect(await png(field('^CI27', [0xc4]))).to.deep.equal(utf8);
    expect(await png(field('^CI0', [0x8e]))).to.deep.equal(utf8);
    expect(await png(Buffer.from('^XA^CI0^FO20,20^A0N,40,40^FH^FD_8E^FS^XZ'))).to.deep.equal(utf8);
    expect(await png(field('^CI0', [0x41]))).to.not.deep.equal(utf8);
  });
});
