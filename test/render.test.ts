import { expect } from 'chai';
import { render, labelDots } from '../renderer/render.js';
import { RenderError, ordinal } from '../renderer/errors.js';
import { decodePng, inkCount, px } from './helpers/png.js';

const box = '^XA^FO10,20^GB100,50,4^FS^XZ';

async function renderError(zpl: string, req: Partial<Parameters<typeof render>[1]> = {}): Promise<RenderError> {
  try {
    await render(zpl, { dpmm: 8, widthIn: 4, heightIn: 6, format: 'png', index: 0, ...req });
  } catch (e) {
    expect(e).to.be.instanceOf(RenderError);
    return e as RenderError;
  }
  throw new Error('render did not fail');
}

describe('render: sizes and encodings', () => {
  it('sizes labels as trunc(inches x floor(dpmm x 25.4))', () => {
    expect([labelDots(4, 8), labelDots(6, 8)]).to.deep.equal([812, 1218]);
    expect([labelDots(4.005, 8), labelDots(8.01, 8)]).to.deep.equal([813, 1626]);
    expect([labelDots(4, 12), labelDots(6, 12)]).to.deep.equal([1216, 1824]);
    expect(labelDots(1, 24)).to.equal(609);
    expect(labelDots(1, 6)).to.equal(152);
  });

  it('renders an 8-bit greyscale PNG with the box where ^FO put it', async () => {
    const r = await render(box, { dpmm: 8, widthIn: 4, heightIn: 6, format: 'png', index: 0 });
    expect(r.contentType).to.equal('image/png');
    const img = decodePng(r.body);
    expect([img.width, img.height, img.bitDepth, img.colorType]).to.deep.equal([812, 1218, 8, 0]);
    expect(px(img, 10, 20)).to.equal(0); // top-left corner of the border
    expect(px(img, 109, 69)).to.equal(0); // bottom-right corner
    expect(px(img, 13, 23)).to.equal(0); // inside the 4-dot border
    expect(px(img, 14, 24)).to.equal(255); // hollow inside
    expect(px(img, 9, 20)).to.equal(255); // left of the box
    expect(px(img, 110, 20)).to.equal(255); // right of the box
    expect(inkCount(img)).to.equal(100 * 50 - 92 * 42);
  });

  it('renders 1-bit PNGs for bitonal quality', async () => {
    const r = await render(box, { dpmm: 8, widthIn: 4, heightIn: 6, format: 'png', index: 0, quality: 'bitonal' });
    const img = decodePng(r.body);
    expect([img.bitDepth, img.colorType]).to.deep.equal([1, 0]);
    expect(px(img, 10, 20)).to.equal(0);
    expect(px(img, 14, 24)).to.equal(255);
  });

  it('rotates PNG output clockwise', async () => {
    const r = await render(box, { dpmm: 8, widthIn: 4, heightIn: 6, format: 'png', index: 0, rotation: 90 });
    const img = decodePng(r.body);
    expect([img.width, img.height]).to.deep.equal([1218, 812]);
    // (x, y) -> (H-1-y, x): the box's top-left corner (10,20) lands at (1197, 10)
    expect(px(img, 1197, 10)).to.equal(0);
    expect(px(img, 1218 - 1 - 70, 110)).to.equal(255);
    const r180 = decodePng(
      (await render(box, { dpmm: 8, widthIn: 4, heightIn: 6, format: 'png', index: 0, rotation: 180 })).body,
    );
    expect(px(r180, 811 - 10, 1217 - 20)).to.equal(0);
    const r270 = decodePng(
      (await render(box, { dpmm: 8, widthIn: 4, heightIn: 6, format: 'png', index: 0, rotation: 270 })).body,
    );
    expect(px(r270, 20, 811 - 10)).to.equal(0);
  });

  it('produces the same bytes on every run', async () => {
    const a = await render(box, { dpmm: 8, widthIn: 4, heightIn: 6, format: 'png', index: 0 });
    const b = await render(box, { dpmm: 8, widthIn: 4, heightIn: 6, format: 'png', index: 0 });
    expect(Buffer.compare(Buffer.from(a.body), Buffer.from(b.body))).to.equal(0);
    const p1 = await render(box, { dpmm: 8, widthIn: 4, heightIn: 6, format: 'pdf' });
    const p2 = await render(box, { dpmm: 8, widthIn: 4, heightIn: 6, format: 'pdf' });
    expect(Buffer.compare(Buffer.from(p1.body), Buffer.from(p2.body))).to.equal(0);
  });

  it('makes one label-sized PDF page per label, copies included (raster PDF: each label a 1-bit image)', async () => {
    const r = await render('^XA^FO0,0^GB10,10,10^FS^PQ2^XZ^XA^FO5,5^GB9,9,9^FS^XZ', {
      dpmm: 8,
      widthIn: 4,
      heightIn: 6,
      format: 'pdf',
      pdf: 'raster',
    });
    expect(r.contentType).to.equal('application/pdf');
    expect(r.totalCount).to.equal(3);
    expect(r.pages).to.equal(3);
    const text = Buffer.from(r.body).toString('latin1');
    expect(text.startsWith('%PDF-')).to.equal(true);
    expect(text.match(/\/Type \/Page\b/g)).to.have.length(3);
    expect(text).to.match(/\/MediaBox \[ 0 0 288 432 \]/);
    expect(text).to.match(/\/BitsPerComponent 1/);
  });

  it('renders a single PDF page for an index', async () => {
    const r = await render('^XA^XZ^XA^XZ', { dpmm: 8, widthIn: 2, heightIn: 1, format: 'pdf', index: 1 });
    expect(r.pages).to.equal(1);
    expect(r.totalCount).to.equal(2);
    expect(Buffer.from(r.body).toString('latin1')).to.match(/\/MediaBox \[ 0 0 144 72 \]/);
  });
});

describe('render: label counts and errors', () => {
  it('counts ^PQ copies in the total', async () => {
    const r = await render('^XA^FO1,1^GB5,5,5^FS^PQ3^XZ^XA^FO1,1^GB5,5,5^FS^XZ', {
      dpmm: 8,
      widthIn: 4,
      heightIn: 6,
      format: 'png',
      index: 3,
    });
    expect(r.totalCount).to.equal(4);
  });

  it('skips a settings-only format before real labels, as the legacy service does', async () => {
    const zpl = '^XA^LH0,0^PON^CI27^XZ^XA^FO10,10^GB20,20,20^FS^XZ';
    const r = await render(zpl, { dpmm: 8, widthIn: 1, heightIn: 1, format: 'png', index: 0 });
    expect(r.totalCount).to.equal(1);
    expect(px(decodePng(r.body), 15, 15)).to.equal(0);
    const blank = await render('^XA^XZ^XA^XZ', { dpmm: 8, widthIn: 1, heightIn: 1, format: 'png', index: 1 });
    expect(blank.totalCount).to.equal(2);
  });

  it('names the requested label with an English ordinal', async () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112].map(ordinal)).to.deep.equal([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '101st',
      '111th',
      '112th',
    ]);
    const none = await renderError('^FX nothing printed');
    expect([none.code, none.message]).to.deep.equal(['no-labels', 'Requested 1st label but ZPL generated no labels']);
    const two = await renderError('^XA^XZ^XA^XZ', { index: 2 });
    expect([two.code, two.message]).to.deep.equal([
      'index-out-of-range',
      'Requested 3rd label but ZPL only generated 2 labels',
    ]);
    const one = await renderError('^XA^XZ', { index: 1 });
    expect(one.message).to.equal('Requested 2nd label but ZPL only generated 1 label');
  });

  it('reports no labels for the all-labels PDF', async () => {
    const e = await renderError('', { format: 'pdf', index: undefined });
    expect([e.code, e.message]).to.deep.equal(['no-labels', 'no labels generated']);
  });

  it('refuses documents with more labels than the maximum without rendering them', async () => {
    const e = await renderError('^XA^PQ99999999^XZ');
    expect(e.code).to.equal('too-many-labels');
    const ok = await render('^XA^PQ5^XZ', { dpmm: 8, widthIn: 1, heightIn: 1, format: 'png', index: 4, maxLabels: 5 });
    expect(ok.totalCount).to.equal(5);
    const over = await renderError('^XA^PQ6^XZ', { maxLabels: 5 });
    expect(over.code).to.equal('too-many-labels');
  });

  it('refuses labels over the pixel budget before allocating', async () => {
    const e = await renderError(box, { widthIn: 15, heightIn: 15, dpmm: 24, maxPixels: 1_000_000 });
    expect(e.code).to.equal('too-large');
  });

  it('keeps going past broken commands and reports them', async () => {
    const r = await render('^XA^FO10,10^GB50,50,50^FS^QQ^FO-20,abc^GB5,5,5^FS^XZ', {
      dpmm: 8,
      widthIn: 1,
      heightIn: 1,
      format: 'png',
      index: 0,
    });
    const img = decodePng(r.body);
    expect(px(img, 30, 30)).to.equal(0);
    expect(r.warnings.map((w) => w.message)).to.include('Unknown command ^QQ; ignored');
  });
});
