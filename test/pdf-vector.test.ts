// Vector PDF, read back with poppler: drawn like our PNG (pdftoppm + ink F1), text searchable (pdftotext),
// images only where the label has a graphic (pdfimages), pages of the label's size (pdfinfo).

import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { render } from '../renderer/render.js';
import type { RenderRequest } from '../renderer/api.js';
import { inkF1 } from '../compare/ink-f1.js';
import { decodePng } from './helpers/png.js';
import { hasPoppler, pdfImages, pdfInfo, pdfText, rasterisePdf } from './helpers/poppler.js';

const base = { dpmm: 8 as const, widthIn: 4, heightIn: 6 };

/** Ink F1 of poppler's rendering of our vector PDF against our PNG of the same label. */
async function vectorVsPng(zpl: string, req: Partial<RenderRequest> = {}): Promise<number> {
  const png = decodePng((await render(zpl, { ...base, ...req, format: 'png', index: 0 })).body);
  const pdf = (await render(zpl, { ...base, ...req, format: 'pdf', index: 0 })).body;
  return inkF1({ width: png.width, height: png.height, grey: png.gray }, rasterisePdf(pdf, png.width, png.height));
}

const LABELS: Record<string, string> = {
  'text in font 0 and device fonts, all four orientations':
    '^XA^FO40,40^A0N,60^FDShip to: Zebra^FS^FO40,140^ADN,36,20^FDDEVICE D^FS^FO700,100^A0R,40^FDTurned R^FS' +
    '^FO400,700^A0I,40^FDTurned I^FS^FO100,500^A0B,40^FDTurned B^FS^FO40,900^FB500,3,0,C^A0N,30^FDA block of text that wraps over lines^FS^XZ',
  'boxes, rounded boxes, circles, ellipses and diagonals':
    '^XA^FO20,20^GB700,300,6^FS^FO60,60^GB200,150,10,B,4^FS^FO300,60^GC150,8^FS^FO500,60^GE200,120,5^FS' +
    '^FO60,400^GD300,200,8,B,L^FS^FO400,400^GD300,200,4,B,R^FS^FO100,700^GB300,300,300^FS^FO150,750^GB100,100,100,W^FS^XZ',
  'linear and 2D barcodes with interpretation lines':
    '^XA^BY3^FO50,50^BCN,120,Y,N,N^FD1234567890^FS^FO50,300^B3N,N,100,Y,N^FDCODE39^FS^FO50,500^BQN,2,6^FDQA,https://example.com^FS' +
    '^FO400,500^BXN,8,200^FDDATAMATRIX^FS^FO50,800^B7N,6,3^FDPDF417 data^FS^FO450,800^BEN,100,Y,N^FD590123412345^FS^XZ',
  'reverse (^FR) text over a box and reverse boxes crossing':
    '^XA^FO50,50^GB500,200,200^FS^FO80,100^FR^A0N,80^FDREVERSED^FS^FO300,400^GB300,300,300^FS^FO450,550^FR^GB300,300,300^FS' +
    '^FO100,800^FR^GC200,100^FS^FO150,850^FR^A0N,60^FDXOR^FS^XZ',
  'whole label reversed (^LRY) with a QR code':
    '^XA^LRY^FO0,0^GB812,400,400^FS^FO50,50^A0N,70^FDLR YES^FS^FO500,50^BQN,2,5^FDQA,LRY^FS^FO50,600^A0N,50^FDbelow^FS^XZ',
  '^GF graphic and ^FR graphic':
    '^XA^FO100,100^GFA,32,32,4,FFFFFFFF80000001BFFFFFFDA0000005AFFFFFF5A8000015ABFFFFD5AA000055^FS' +
    '^FO100,300^GB200,100,100^FS^FO120,320^FR^GFA,8,8,1,FFC3C3C3C3C3C3FF^FS^XZ',
  'a reverse QR code and reverse lines over a box (hundreds of touching reverse modules)':
    '^XA^FO40,40^FR^BQN,2,8^FDQA,reverse modules touching each other all over the symbol^FS^FO10,500^GB600,300,3^FS' +
    [0, 1, 2, 3, 4, 5, 6]
      .map((i) => `^FO24,${512 + i * 40}^A0N,${30 + (i % 3) * 6}^FR^FDReverse line ${i}^FS`)
      .join('') +
    '^XZ',
  'inverted (^POI) and mirrored (^PMY)':
    '^XA^POI^PMY^FO50,50^A0N,60^FDUpside down^FS^FO50,200^GB300,100,8^FS^FO400,400^BCN,100^FD12345^FS^XZ',
};

describe('vector PDF bytes', () => {
  it('are the same whatever the process rendered before (glyph shapes are cached across requests)', async () => {
    const zpl = '^XA^FO10,10^A0N,31^FDWavy lines 0123^FS^FO10,80^A0R,27^FDWavy^FS^XZ';
    // First the same glyphs at other pen positions, so the cache holds them from another document.
    await render('^XA^FO13,10^A0N,31^FD  aWavy lines 0123 0123^FS^FO10,80^A0R,27^FDx Wavy^FS^XZ', {
      ...base,
      format: 'pdf',
    });
    const here = createHash('sha256')
      .update((await render(zpl, { ...base, format: 'pdf' })).body)
      .digest('hex');
    const renderModule = new URL('../renderer/render.js', import.meta.url).href;
    const fresh = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { render } = await import(${JSON.stringify(renderModule)}); const { createHash } = await import('node:crypto');` +
          `const r = await render(${JSON.stringify(zpl)}, { dpmm: 8, widthIn: 4, heightIn: 6, format: 'pdf' });` +
          `process.stdout.write(createHash('sha256').update(r.body).digest('hex'));`,
      ],
      { encoding: 'latin1' },
    );
    expect(here).to.equal(fresh);
  });
});

describe('vector PDF read back with poppler', () => {
  before(function () {
    if (!hasPoppler()) {
      console.log('    (poppler-utils not installed: apt-get install -y poppler-utils; .ci/run installs it)');
      this.skip();
    }
  });

  for (const [name, zpl] of Object.entries(LABELS)) {
    it(`draws ${name} as the PNG does (ink F1 >= 0.98)`, async () => {
      expect(await vectorVsPng(zpl)).to.be.at.least(0.98);
    });
  }

  it('draws at 12 and 24 dpmm on a 4x6 page of 288 x 432 pt', async () => {
    const zpl = LABELS['linear and 2D barcodes with interpretation lines'];
    for (const dpmm of [12, 24] as const) expect(await vectorVsPng(zpl, { dpmm })).to.be.at.least(0.98);
    const pdf = (await render(zpl, { ...base, format: 'pdf' })).body;
    expect(pdfInfo(pdf)['Page size']).to.match(/^288 x 432 pts/);
  });

  it('carries each text field as text that pdftotext finds, interpretation lines too', async () => {
    const pdf = (
      await render(
        LABELS['text in font 0 and device fonts, all four orientations'] +
          LABELS['reverse (^FR) text over a box and reverse boxes crossing'] +
          LABELS['linear and 2D barcodes with interpretation lines'],
        { ...base, format: 'pdf' },
      )
    ).body;
    const text = pdfText(pdf);
    for (const s of [
      'Ship to: Zebra',
      'DEVICE D',
      'Turned R',
      'Turned I',
      'Turned B',
      'A block of text',
      'REVERSED',
      'XOR',
      '1234567890',
      'CODE39',
    ]) {
      expect(text, s).to.include(s);
    }
    expect(Number(pdfInfo(pdf).Pages)).to.equal(3);
  });

  it('carries text beyond Latin-1 (^CI28) as the text itself, not as question marks', async () => {
    const zpl =
      '^XA^CI28^FO40,40^A0N,40,40^FDПривет мир^FS^FO40,120^A0N,40,40^FDStraße Ωmega 東京^FS^FO40,200^A0N,40,40^FDPlain ASCII^FS^XZ';
    const text = pdfText((await render(zpl, { ...base, format: 'pdf' })).body);
    for (const s of ['Привет мир', 'Straße Ωmega 東京', 'Plain ASCII']) expect(text, s).to.include(s);
    expect(text).not.to.include('?');
  });

  it('has no image for labels without a graphic; a stencil image for ^GF (a reverse one is a clip path)', async () => {
    for (const name of Object.keys(LABELS).filter((n) => !n.includes('^GF'))) {
      expect(pdfImages((await render(LABELS[name], { ...base, format: 'pdf' })).body), name).to.deep.equal([]);
    }
    const images = pdfImages((await render(LABELS['^GF graphic and ^FR graphic'], { ...base, format: 'pdf' })).body);
    expect(images.map((l) => l.split(/\s+/).slice(3, 6))).to.deep.equal([['stencil', '32', '8']]);
  });

  it('leaves no ink outside a ^PW narrower than the label, as the PNG does', async () => {
    // 812 dots wide; ^PW400 is centred: columns 206 to 605 carry ink, the rest is paper.
    const zpl =
      '^XA^PW400^FO0,10^GB800,20,20^FS^FO0,50^A0N,40,40^FDWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW^FS^FO0,120^FR^GB800,60,60^FS^XZ';
    const png = decodePng((await render(zpl, { ...base, format: 'png' })).body);
    const pdf = rasterisePdf((await render(zpl, { ...base, format: 'pdf' })).body, png.width, png.height);
    const inkColumns = (grey: Uint8Array) => {
      const cols = new Set<number>();
      for (let i = 0; i < grey.length; i++) if (grey[i] < 128) cols.add(i % png.width);
      return [Math.min(...cols), Math.max(...cols)];
    };
    expect(inkColumns(png.gray)).to.deep.equal([206, 605]);
    expect(inkColumns(pdf.grey)).to.deep.equal([206, 605]);
    expect(inkF1({ width: png.width, height: png.height, grey: png.gray }, pdf)).to.be.at.least(0.98);
  });

  it('draws font 0 with its heavier vertical strokes, as the PNG does (same inked area within 1%)', async () => {
    // Stems 1.1 dots heavier at height 200 make 3% more ink here; poppler does not anti-alias, so its page is
    // rasterised 4 x 4 times finer and its ink summed as area.
    const zpl = '^XA^FO20,20^A0N,200^FDIIIIIIIIIIII^FS^FO20,300^A0N,200^FDHHHHHH^FS^FO700,600^A0R,200^FDIIIIII^FS^XZ';
    const png = decodePng((await render(zpl, { ...base, format: 'png' })).body);
    const fine = rasterisePdf((await render(zpl, { ...base, format: 'pdf' })).body, png.width * 4, png.height * 4);
    const area = (grey: Uint8Array, scale: number) => grey.reduce((n, g) => n + (255 - g), 0) / 255 / scale;
    expect(area(fine.grey, 16) / area(png.gray, 1)).to.be.within(0.99, 1.01);
  });

  it('keeps the raster PDF on request: one 1-bit image the size of the label, no text', async () => {
    const pdf = (
      await render(LABELS['text in font 0 and device fonts, all four orientations'], {
        ...base,
        format: 'pdf',
        pdf: 'raster',
      })
    ).body;
    expect(pdfImages(pdf).map((l) => l.split(/\s+/).slice(3, 6))).to.deep.equal([['image', '812', '1218']]);
    expect(pdfText(pdf).trim()).to.equal('');
  });
});
