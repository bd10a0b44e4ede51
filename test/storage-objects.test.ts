// Stored objects through render(): ~DG/^XG with magnification, ~DY GRF and PNG with ^IM, ^ID, drive search,
// a recalled object that does not exist, and the size budgets. Pixels are read back from the PNG.

import { expect } from 'chai';
import { render } from '../renderer/render.js';
import { encodePng } from '../renderer/encoders/png.js';
import { Raster } from '../renderer/raster/raster.js';
import { decodePng, inkCount } from './helpers/png.js';
import { inkRows, renderLabel } from './helpers/label.js';

async function renderError(zpl: string): Promise<{ code?: string; message: string }> {
  try {
    await renderLabel(zpl);
  } catch (e) {
    return e as { code?: string; message: string };
  }
  throw new Error('render did not fail');
}

/** A PNG with ink where `rows` has `#`, made by our own encoder (grey 0 for ink, 255 for paper). */
function pngOf(rows: string[]): Buffer {
  const r = new Raster(rows[0].length, rows.length);
  rows.forEach((row, y) => {
    [...row].forEach((c, x) => {
      if (c === '#') r.plot(x, y, 255);
    });
  });
  return Buffer.from(encodePng(r));
}

describe('stored graphics', () => {
  it('recalls a ~DG graphic with ^XG, magnified per axis', async () => {
    // 1 byte a row: C0 = ##......, 40 = .#......
    const zpl = '~DGR:DOT.GRF,2,1,C040^XA^FO10,10^XGR:DOT.GRF,2,3^FS^XZ';
    expect(await inkRows(zpl, 10, 10, 5, 7)).to.deep.equal([
      '####.',
      '####.',
      '####.',
      '..##.',
      '..##.',
      '..##.',
      '.....',
    ]);
  });

  it('normalises names: no drive means R:, no extension means .GRF, and lookups search every drive', async () => {
    const both = await inkRows('~DGlogo,1,1,80^XA^FO5,5^XGR:LOGO.GRF^FS^FO7,5^XGE:LOGO.GRF^FS^XZ', 5, 5, 3, 1);
    expect(both).to.deep.equal(['#..']); // R:LOGO.GRF exists; E:LOGO.GRF was asked for by drive and does not
    const searched = await inkRows('~DGE:LOGO.GRF,1,1,80^XA^FO5,5^XGLOGO^FS^XZ', 5, 5, 2, 1);
    expect(searched).to.deep.equal(['#.']);
  });

  it('reports a recalled object that does not exist, at its name', async () => {
    const zpl = '^XA^FO5,5^XGR:NOPE.GRF,1,1^FS^XZ';
    const r = await renderLabel(zpl);
    expect(r.warnings.map((w) => [w.command, w.param, w.byteIndex])).to.deep.equal([['^XG', 1, zpl.indexOf('R:NOPE')]]);
    expect(r.warnings[0].message).to.contain('R:NOPE.GRF');
    expect(inkCount(decodePng(r.body))).to.equal(0);
  });

  it('draws nothing for an object downloaded only after the field that recalls it', async () => {
    const r = await renderLabel('^XA^FO0,0^XGR:LATE.GRF^FS^XZ~DGR:LATE.GRF,1,1,FF');
    expect(r.warnings.map((w) => w.command)).to.deep.equal(['^XG']);
    expect(inkCount(decodePng(r.body))).to.equal(0);
  });

  it('draws the object as it was when the field recalled it, even if a later download replaces it', async () => {
    const zpl = '~DGR:V.GRF,1,1,80^XA^FO0,0^XGR:V.GRF^FS^XZ~DGR:V.GRF,1,1,01^XA^FO0,0^XGR:V.GRF^FS^XZ';
    const first = decodePng((await render(zpl, { dpmm: 8, widthIn: 1, heightIn: 1, format: 'png', index: 0 })).body);
    const second = decodePng((await render(zpl, { dpmm: 8, widthIn: 1, heightIn: 1, format: 'png', index: 1 })).body);
    expect([first.gray[0] < 128, first.gray[7] < 128]).to.deep.equal([true, false]);
    expect([second.gray[0] < 128, second.gray[7] < 128]).to.deep.equal([false, true]);
  });

  it('deletes objects with ^ID, wildcards included', async () => {
    const zpl =
      '~DGR:A1.GRF,1,1,80~DGR:A2.GRF,1,1,80~DGR:B1.GRF,1,1,80^XA^IDR:A*.GRF^FS' +
      '^FO0,0^XGR:A1.GRF^FS^FO2,0^XGR:A2.GRF^FS^FO4,0^XGR:B1.GRF^FS^XZ';
    const r = await renderLabel(zpl);
    expect(r.warnings.filter((w) => w.command === '^XG')).to.have.length(2);
    expect(await inkRows(zpl, 0, 0, 6, 1)).to.deep.equal(['....#.']);
  });

  it('stores ~DY GRF data and ~DY PNG images, drawn with ^IM', async () => {
    const grf = await inkRows('~DYR:G1,A,G,2,1,81FF^XA^FO3,3^IMR:G1.GRF^FS^XZ', 3, 3, 8, 2);
    expect(grf).to.deep.equal(['#......#', '########']);

    const png = pngOf(['#..#', '.##.', '#...']);
    const hex = png.toString('hex').toUpperCase();
    const fromHex = await inkRows(`~DYR:PIC,A,P,${png.length},,${hex}^XA^FO3,3^IMR:PIC.PNG^FS^XZ`, 3, 3, 5, 4);
    expect(fromHex).to.deep.equal(['#..#.', '.##..', '#....', '.....']);
    const b64 = png.toString('base64');
    const fromB64 = await inkRows(
      `~DYR:PIC,B,P,${png.length},,:B64:${b64}:0000^XA^FO3,3^IMR:PIC.PNG^FS^XZ`,
      3,
      3,
      5,
      4,
    );
    expect(fromB64).to.deep.equal(fromHex);
  });

  it('loads a stored image at the label home with ^IL', async () => {
    const got = await inkRows('~DGR:BG.GRF,2,1,FF81^XA^LH5,6^ILR:BG.GRF^FO20,20^GB2,2,2^FS^XZ', 4, 5, 10, 4);
    expect(got).to.deep.equal(['..........', '.########.', '.#......#.', '..........']);
  });

  it('keeps downloaded TrueType fonts as font objects (drawn by the text work); one it cannot read is said so', async () => {
    const r = await renderLabel('~DUR:MYFONT.TTF,4,00010000^XA^XZ');
    expect(r.warnings.map((w) => [w.command, w.message])).to.deep.equal([
      ['~DU', 'Font R:MYFONT.TTF could not be read (the font file is truncated); its text is drawn in font 0'],
    ]);
  });

  it('refuses objects over 2 MB and images over 2,000 pixels as too-large errors', async () => {
    const big = await renderError('~DGR:BIG.GRF,2100000,100,FF^XA^XZ');
    expect(big.code).to.equal('too-large');
    const wide = pngOf(['#'.repeat(2001)]);
    const e = await renderError(`~DYR:WIDE,A,P,${wide.length},,${wide.toString('hex')}^XA^XZ`);
    expect(e.code).to.equal('too-large');
    expect(e.message).to.contain('2001');
  });

  it('forgets objects between requests: every request is a fresh printer', async () => {
    await renderLabel('~DGR:ONCE.GRF,1,1,80^XA^XZ');
    const r = await renderLabel('^XA^FO0,0^XGR:ONCE.GRF^FS^XZ');
    expect(r.warnings.map((w) => w.command)).to.deep.equal(['^XG']);
  });
});
