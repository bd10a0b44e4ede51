// The linter knows the stored-object commands the legacy service draws (~EG, ^EG, ^TO, ^IS, ~DB, ~DY with B): none
// is "unknown", and their parameters are read from their tables. A character no font has a glyph for is named.

import { expect } from 'chai';
import { render } from '../renderer/render.js';
import { createRequire } from 'node:module';
import { at } from './helpers/offsets.js';
import { decodePng, inkCount } from './helpers/png.js';

async function warnings(zpl: string): Promise<string[]> {
  const r = await render(zpl, { dpmm: 8, widthIn: 2, heightIn: 2, format: 'png', index: 0 });
  return r.warnings.map((w) => `${w.byteIndex}|${w.byteSize}|${w.command}|${w.param || ''}|${w.message}`);
}

const BMP_1X1 = '424D1E000000000000001A0000000C000000010001000100180000000000';

describe('linter: stored-object commands', () => {
  const documents: Record<string, string> = {
    '~EG': '~DGR:A.GRF,1,1,80~EG^XA^FO1,1^GB5,5,5^FS^XZ',
    '^EG': '^XA^EG^FO1,1^GB5,5,5^FS^XZ',
    '^TO': '~DGR:A.GRF,1,1,80^XA^TOR:A.GRF,E:B.GRF^FO1,1^XGE:B.GRF^FS^XZ',
    '^IS': '^XA^FO1,1^GB5,5,5^FS^ISR:IMG.GRF,N^XZ^XA^ILR:IMG.GRF^XZ',
    '~DB': '~DBR:F.FNT,N,8,8,7,4,1,ME,#0041.1.8.0.0.8.FF^XA^FO1,1^A@N,8,8,R:F.FNT^FDA^FS^XZ',
    '~DY': `~DYR:P,A,B,30,,${BMP_1X1}^XA^FO1,1^IMR:P.BMP^FS^XZ`,
  };
  for (const [command, zpl] of Object.entries(documents)) {
    it(`knows ${command}: a clean document using it has no warning`, async () => {
      expect(await warnings(zpl)).to.deep.equal([]);
    });
  }

  it('reads their parameters from the tables: out-of-range values and content after ~EG are reported where they are', async () => {
    const db = '~DBR:F.FNT,N,40000,8,7,4,1,ME,#0041.1.8.0.0.8.FF^XA^XZ';
    expect(await warnings(db)).to.deep.equal([
      `${at(db, '40000')}|5|~DB|3|Value 40000 is greater than maximum value 32000; used 32000 instead`,
    ]);
    const is = '^XA^FO1,1^GB5,5,5^FS^ISR:IMG.GRF,Q^XZ';
    expect(await warnings(is)).to.deep.equal([`${at(is, 'Q^XZ')}|1|^IS|2|Invalid value Q; used Y instead`]);
    const eg = '~EGxyz^XA^XZ';
    expect(await warnings(eg)).to.deep.equal([`${at(eg, 'xyz')}|3|~EG||Ignored unrecognized content`]);
  });
});

/** Whether the optional Japanese fallback of font 0 is installed (renderer/fonts/builtin.ts: notoSansJpBold). */
function hasJapaneseFallback(): boolean {
  try {
    createRequire(import.meta.url).resolve('@expo-google-fonts/noto-sans-jp');
    return true;
  } catch {
    return false;
  }
}

describe('linter: characters no font has', () => {
  it('names each character (once) that the font and its fallbacks cannot draw, at the field data', async () => {
    const zpl = '^XA^CI28^FO10,10^A0N,60,60^FD한국어 한국^FS^XZ';
    const data = Buffer.from('한국어 한국').length;
    expect(await warnings(zpl)).to.deep.equal([
      `${Buffer.from(zpl.slice(0, zpl.indexOf('한'))).length}|${data}|^FD|1|No font has a glyph for 한 (U+D55C), 국 (U+AD6D), 어 (U+C5B4); they print as blank space`,
    ]);
  });

  it('counts the characters past the first eight, and says nothing of spaces or of what a fallback draws', async () => {
    const r = await warnings('^XA^CI28^FO10,10^A0N,30,30^FDภาษาไทย ሰላም ÀΩЖ€^FS^XZ');
    expect(r).to.have.length(1);
    expect(r[0]).to.match(
      /\|\^FD\|1\|No font has a glyph for ภ \(U\+0E20\), .* ሰ \(U\+1230\), ላ \(U\+120B\) and 1 more; they print as blank space$/,
    );
  });

  it('draws 日本語 in font 0 from Noto Sans JP Bold when that package is installed, else warns naming them', async () => {
    const zpl = '^XA^CI28^FO10,10^A0N,60,60^FD日本語^FS^XZ';
    const r = await render(zpl, { dpmm: 8, widthIn: 2, heightIn: 2, format: 'png', index: 0 });
    const ink = inkCount(decodePng(r.body));
    if (hasJapaneseFallback()) {
      expect(r.warnings).to.deep.equal([]);
      expect(ink).to.be.greaterThan(500);
    } else {
      expect(r.warnings.map((w) => w.message)).to.deep.equal([
        'No font has a glyph for 日 (U+65E5), 本 (U+672C), 語 (U+8A9E); they print as blank space',
      ]);
      expect(ink).to.equal(0);
    }
  });

  it('names what a downloaded bitmap font lacks', async () => {
    const r = await warnings('~DBR:F.FNT,N,8,8,7,4,1,ME,#0041.1.8.0.0.8.FF^XA^FO1,1^A@N,8,8,R:F.FNT^FDAB^FS^XZ');
    expect(r.map((w) => w.split('|').slice(2).join('|'))).to.deep.equal([
      '^FD|1|No font has a glyph for B (U+0042); it prints as blank space',
    ]);
  });
});
