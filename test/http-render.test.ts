// End to end through the real renderer: PNG and PDF bytes as a client receives them.

import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import { binaryBody as binary, buildApp, KEYS, labelsPath } from './helpers/http-app.js';
import { decodePng, px } from './helpers/png.js';

const BOX = '^XA^FO100,50^GB200,100,100^FS^XZ';
const TWO_LABELS = '^XA^FO10,10^GB20,20,20^FS^XZ^XA^FO10,10^GB20,20,20^FS^XZ';

describe('HTTP: rendering through the real renderer', () => {
  let app: Express;
  before(async () => {
    ({ app } = await buildApp());
  });

  const post = (path: string, zpl: string) =>
    request(app).post(path).set('X-API-Key', KEYS.all).type('form').buffer(true).parse(binary).send(zpl);

  it('returns an 8-bit greyscale PNG of 4x6 inches at 8 dpmm with the ^GB box drawn black', async () => {
    const res = await post(labelsPath('8dpmm', '4x6', '0'), BOX);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('image/png');
    expect(res.headers['x-total-count']).to.equal('1');
    const png = decodePng(res.body as Buffer);
    expect([png.width, png.height, png.bitDepth, png.colorType]).to.deep.equal([812, 1218, 8, 0]);
    expect(px(png, 150, 100)).to.equal(0);
    expect(px(png, 299, 149)).to.equal(0);
    expect(px(png, 99, 100)).to.equal(255);
    expect(px(png, 150, 151)).to.equal(255);
    expect(px(png, 500, 500)).to.equal(255);
  });

  it('sizes the PNG by density: 12 dpmm gives 1216x1824, 6 gives 608x912', async () => {
    const twelve = decodePng((await post(labelsPath('12', '4x6', '0'), BOX)).body as Buffer);
    expect([twelve.width, twelve.height]).to.deep.equal([1216, 1824]);
    const six = decodePng((await post(labelsPath('6dpmm', '4x6', '0'), BOX)).body as Buffer);
    expect([six.width, six.height]).to.deep.equal([608, 912]);
  });

  it('renders the ZPL of a GET the same as the POST body', async () => {
    const viaGet = await request(app)
      .get(labelsPath('8dpmm', '2x1', '0', encodeURIComponent(BOX)))
      .set('X-API-Key', KEYS.all)
      .buffer(true)
      .parse(binary);
    const viaPost = await post(labelsPath('8dpmm', '2x1', '0'), BOX);
    expect(viaGet.status).to.equal(200);
    expect((viaGet.body as Buffer).equals(viaPost.body as Buffer)).to.equal(true);
  });

  it('gives a 1-bit PNG for X-Quality: Bitonal', async () => {
    const res = await post(labelsPath('8dpmm', '2x1', '0'), BOX).set('X-Quality', 'Bitonal');
    const png = decodePng(res.body as Buffer);
    expect([png.width, png.height, png.bitDepth, png.colorType]).to.deep.equal([406, 203, 1, 0]);
    expect(px(png, 150, 100)).to.equal(0);
    expect(px(png, 350, 100)).to.equal(255);
  });

  it('turns the PNG clockwise for X-Rotation: 90', async () => {
    const res = await post(labelsPath('8dpmm', '2x1', '0'), BOX).set('X-Rotation', '90');
    const png = decodePng(res.body as Buffer);
    expect([png.width, png.height]).to.deep.equal([203, 406]);
    // (x, y) of the upright label lands at (height - 1 - y, x).
    expect(px(png, 203 - 1 - 100, 150)).to.equal(0);
    expect(px(png, 203 - 1 - 100, 350)).to.equal(255);
  });

  it('returns one label of several by index, and counts them all', async () => {
    const res = await post(labelsPath('8dpmm', '2x1', '1'), TWO_LABELS);
    expect(res.status).to.equal(200);
    expect(res.headers['x-total-count']).to.equal('2');
  });

  it('answers an index past the last label with 404 and the legacy text', async () => {
    const res = await request(app)
      .post(labelsPath('8dpmm', '2x1', '2'))
      .set('X-API-Key', KEYS.all)
      .type('form')
      .send(TWO_LABELS);
    expect(res.status).to.equal(404);
    expect(res.text).to.equal('ERROR: Requested 3rd label but ZPL only generated 2 labels');
  });

  it('answers a document without labels with 404', async () => {
    const one = await request(app)
      .post(labelsPath('8dpmm', '2x1', '0'))
      .set('X-API-Key', KEYS.all)
      .type('form')
      .send('');
    expect(one.status).to.equal(404);
    expect(one.text).to.equal('ERROR: Requested 1st label but ZPL generated no labels');
    const all = await request(app)
      .post(labelsPath('8dpmm', '2x1'))
      .set('X-API-Key', KEYS.all)
      .set('Accept', 'application/pdf')
      .type('form')
      .send('no zpl here');
    expect(all.status).to.equal(404);
    expect(all.text).to.equal('ERROR: no labels generated');
  });

  it('returns a single-page PDF for an index and one page per label for the all-labels endpoint', async () => {
    const single = await post(labelsPath('8dpmm', '2x1', '0'), TWO_LABELS).set('Accept', 'application/pdf');
    expect(single.status).to.equal(200);
    expect(single.headers['content-type']).to.equal('application/pdf');
    expect(single.headers['content-disposition']).to.equal('inline; filename="label.pdf"');
    expect((single.body as Buffer).subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    const all = await post(labelsPath('8dpmm', '2x1'), TWO_LABELS).set('Accept', 'application/pdf');
    expect(all.status).to.equal(200);
    expect(all.headers['x-total-count']).to.equal('2');
    const pageCount = (body: Buffer): number => (body.toString('latin1').match(/\/Type\s*\/Page\b/g) ?? []).length;
    expect(pageCount(single.body as Buffer)).to.equal(1);
    expect(pageCount(all.body as Buffer)).to.equal(2);
  });

  it('refuses more labels than the configured maximum with 413', async () => {
    const { app: small } = await buildApp({ maxLabels: 3 });
    const res = await request(small)
      .post(labelsPath('8dpmm', '1x1'))
      .set('X-API-Key', KEYS.all)
      .set('Accept', 'application/pdf')
      .type('form')
      .send('^XA^PQ4^XZ');
    expect(res.status).to.equal(413);
    expect(res.text).to.match(/^ERROR: /);
  });

  it('reports linter diagnostics of a faulty label in X-Warnings', async () => {
    const res = await post(labelsPath('8dpmm', '2x1', '0'), '^XA^FO10,10^GB20,20,20^FS').set('X-Linter', 'On');
    expect(res.status).to.equal(200);
    const fields = String(res.headers['x-warnings'] ?? '').split('|');
    expect(fields.length % 5).to.equal(0);
    expect(fields.length).to.be.at.least(5);
    expect(Number.isInteger(Number(fields[0]))).to.equal(true);
  });
});
