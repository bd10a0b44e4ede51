// Page composition (router option pageComposition: 'apply'): labels on Letter/A4/... sheets in a grid, aligned,
// bordered; read back with poppler. Without the option the headers are validated only.

import { expect } from 'chai';
import request from 'supertest';
import type { GreyImage } from '../compare/ink-f1.js';
import { binaryBody, buildApp, KEYS, labelsPath } from './helpers/http-app.js';
import { hasPoppler, pdfImages, pdfInfo, rasterisePdf } from './helpers/poppler.js';

/** A 4x6 label at 8 dpmm inked edge to edge, so where it lands on a sheet is plain to see. */
const BLACK = '^XA^FO0,0^GB812,1218,1218^FS^XZ';
/** A label with almost no ink: its border is what shows. */
const BLANK = '^XA^FO400,600^GB2,2,2^FS^XZ';

const dark = (img: GreyImage, x: number, y: number) => img.grey[Math.round(y) * img.width + Math.round(x)] < 128;

describe('PDF page composition (X-Page-* applied)', () => {
  before(function () {
    if (!hasPoppler()) this.skip();
  });

  async function pdf(
    zpl: string,
    headers: Record<string, string>,
    apply = true,
    mode: 'vector' | 'raster' = 'vector',
  ): Promise<Buffer> {
    const { app } = await buildApp({
      renderThreads: 0,
      pdf: mode,
      ...(apply && { pageComposition: 'apply' as const }),
    });
    const res = await request(app)
      .post(labelsPath('8dpmm', '4x6'))
      .set('X-API-Key', KEYS.all)
      .set('Accept', 'application/pdf')
      .set(headers)
      .type('text/plain')
      .send(zpl)
      .buffer(true)
      .parse(binaryBody);
    expect(res.status, res.body.toString()).to.equal(200);
    return res.body as Buffer;
  }

  it('puts two labels side by side on landscape Letter, spare space spread evenly (justify)', async () => {
    const body = await pdf(BLACK.repeat(4), {
      'X-Page-Size': 'Letter',
      'X-Page-Orientation': 'landscape',
      'X-Page-Layout': '2x1',
      'X-Label-Border': 'none',
    });
    const info = pdfInfo(body);
    expect(info.Pages).to.equal('2');
    expect(info['Page size']).to.match(/^792 x 612 pts/);
    const img = rasterisePdf(body, 792, 612); // 1 pixel per point
    // (792 - 2 x 288) / 3 = 72 pt around and between; (612 - 432) / 2 = 90 pt above and below.
    for (const [x, y] of [
      [74, 92],
      [358, 520],
      [434, 92],
      [718, 520],
    ])
      expect(dark(img, x, y), `${x},${y}`).to.equal(true);
    for (const [x, y] of [
      [70, 300],
      [362, 300],
      [430, 300],
      [722, 300],
      [200, 88],
      [200, 524],
    ])
      expect(dark(img, x, y), `${x},${y}`).to.equal(false);
  });

  it('aligns left/top, right/bottom and centre as asked', async () => {
    const at = async (align: string, valign: string) =>
      rasterisePdf(
        await pdf(BLACK, {
          'X-Page-Size': 'A4',
          'X-Page-Align': align,
          'X-Page-Vertical-Align': valign,
          'X-Label-Border': 'none',
        }),
        595,
        842,
      );
    const topLeft = await at('left', 'top');
    expect([
      dark(topLeft, 2, 2),
      dark(topLeft, 286, 430),
      dark(topLeft, 290, 200),
      dark(topLeft, 100, 434),
    ]).to.deep.equal([true, true, false, false]);
    const bottomRight = await at('right', 'bottom');
    expect([
      dark(bottomRight, 593, 840),
      dark(bottomRight, 309, 412),
      dark(bottomRight, 305, 600),
      dark(bottomRight, 400, 408),
    ]).to.deep.equal([true, true, false, false]);
    const centre = await at('center', 'center');
    // A4 is 595.28 x 841.89 pt: the label spans x 153.6..441.6, y 205..637.
    expect([
      dark(centre, 156, 208),
      dark(centre, 439, 634),
      dark(centre, 150, 400),
      dark(centre, 445, 400),
      dark(centre, 300, 202),
      dark(centre, 300, 640),
    ]).to.deep.equal([true, true, false, false, false, false]);
  });

  it('draws a solid, a dashed or no border around each label', async () => {
    const edge = async (border: string) => {
      // A5 is 419.53 x 595.28 pt: the centred label's top edge runs along y 81.6 from x 65.8 to 353.8.
      const img = rasterisePdf(
        await pdf(BLANK, {
          'X-Page-Size': 'A5',
          'X-Label-Border': border,
          'X-Page-Align': 'center',
          'X-Page-Vertical-Align': 'center',
        }),
        420,
        595,
      );
      let inked = 0;
      for (let x = 75; x < 345; x++)
        if (img.grey[81 * img.width + x] < 250 || img.grey[82 * img.width + x] < 250) inked++;
      return inked / 270;
    };
    expect(await edge('solid')).to.be.above(0.95);
    const dashed = await edge('dashed');
    expect(dashed).to.be.within(0.3, 0.85);
    expect(await edge('none')).to.equal(0);
  });

  it('places raster labels (pdf: raster) the same way, one image each', async () => {
    const body = await pdf(
      BLACK.repeat(2),
      { 'X-Page-Size': 'Letter', 'X-Page-Orientation': 'landscape', 'X-Page-Layout': '2x1', 'X-Label-Border': 'none' },
      true,
      'raster',
    );
    expect(pdfImages(body).map((l) => l.split(/\s+/).slice(3, 6))).to.deep.equal([
      ['image', '812', '1218'],
      ['image', '812', '1218'],
    ]);
    const img = rasterisePdf(body, 792, 612);
    expect([dark(img, 74, 92), dark(img, 718, 520), dark(img, 70, 300), dark(img, 400, 300)]).to.deep.equal([
      true,
      true,
      false,
      false,
    ]);
  });

  it('without a page size the sheet is the grid: 2x2 labels of 4x6 on 8x12 in', async () => {
    const body = await pdf(BLACK.repeat(5), { 'X-Page-Layout': '2x2', 'X-Label-Border': 'none' });
    const info = pdfInfo(body);
    expect([info.Pages, info['Page size']?.split(' pts')[0]]).to.deep.equal(['2', '576 x 864']);
  });

  it('validates only, label-sized pages, when the router does not apply composition (the default)', async () => {
    const body = await pdf(BLACK.repeat(2), { 'X-Page-Size': 'Letter', 'X-Page-Layout': '2x1' }, false);
    const info = pdfInfo(body);
    expect([info.Pages, info['Page size']?.split(' pts')[0]]).to.deep.equal(['2', '288 x 432']);
  });
});
