// How the router reads the ZPL of a POST: raw bytes verbatim, multipart `file`, size limit.

import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import { buildApp, KEYS, labelsPath, recordingRender } from './helpers/http-app.js';

describe('HTTP: request bodies', () => {
  let app: Express;
  let render: ReturnType<typeof recordingRender>;
  const path = labelsPath('8dpmm', '4x6', '0');

  beforeEach(async () => {
    render = recordingRender();
    ({ app } = await buildApp({ render, maxBodyBytes: 1000 }));
  });

  const received = (): string => render.calls.at(-1)!.zpl.toString('latin1');

  it('keeps an application/x-www-form-urlencoded body byte for byte (+, %41 and & are ZPL)', async () => {
    const zpl = '^XA^FO10,10^FDa+b %41&c=d^FS^XZ';
    const res = await request(app)
      .post(path)
      .set('X-API-Key', KEYS.all)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send(zpl);
    expect(res.status).to.equal(200);
    expect(received()).to.equal(zpl);
  });

  it('keeps bodies of any other type verbatim, binary included', async () => {
    const bytes = Buffer.from([0x5e, 0x58, 0x41, 0x00, 0xff, 0x7e, 0x44, 0x47, 0x0d, 0x0a, 0x5e, 0x58, 0x5a]);
    for (const type of ['text/plain', 'application/octet-stream', 'application/vnd.zebra-zpl']) {
      const res = await request(app).post(path).set('X-API-Key', KEYS.all).set('Content-Type', type).send(bytes);
      expect(res.status, type).to.equal(200);
      expect(render.calls.at(-1)!.zpl.equals(bytes), type).to.equal(true);
    }
  });

  it('reads the file field of a multipart/form-data body', async () => {
    const zpl = '^XA^FDmulti+part%20&^FS^XZ';
    const res = await request(app)
      .post(path)
      .set('X-API-Key', KEYS.all)
      .field('other', 'ignored')
      .attach('file', Buffer.from(zpl), 'label.zpl');
    expect(res.status).to.equal(200);
    expect(received()).to.equal(zpl);
  });

  it('takes a multipart file field sent as text', async () => {
    const res = await request(app).post(path).set('X-API-Key', KEYS.all).field('file', '^XA^FDtext^FS^XZ');
    expect(res.status).to.equal(200);
    expect(received()).to.equal('^XA^FDtext^FS^XZ');
  });

  it('answers a multipart body without a file field with 400', async () => {
    const res = await request(app).post(path).set('X-API-Key', KEYS.all).attach('zpl', Buffer.from('^XA^XZ'), 'a.zpl');
    expect(res.status).to.equal(400);
    expect(res.text).to.equal("ERROR: Multipart request has no 'file' field");
    expect(render.calls).to.have.length(0);
  });

  it('answers a broken multipart body with 400', async () => {
    const res = await request(app)
      .post(path)
      .set('X-API-Key', KEYS.all)
      .set('Content-Type', 'multipart/form-data')
      .send('--x\r\n');
    expect(res.status).to.equal(400);
    expect(res.text).to.equal('ERROR: Malformed multipart/form-data request');
  });

  it('refuses a body over the limit with 413 (declared length, chunked, multipart)', async () => {
    const big = '^XA' + 'A'.repeat(1001) + '^XZ';
    const declared = await request(app).post(path).set('X-API-Key', KEYS.all).type('form').send(big);
    const chunked = request(app).post(path).set('X-API-Key', KEYS.all).set('Content-Type', 'text/plain');
    chunked.write(big.slice(0, 600));
    chunked.write(big.slice(600));
    const streamed = await chunked;
    const multipart = await request(app)
      .post(path)
      .set('X-API-Key', KEYS.all)
      .attach('file', Buffer.from(big), 'big.zpl');
    for (const res of [declared, streamed, multipart]) {
      expect(res.status).to.equal(413);
      expect(res.text).to.equal('ERROR: Request body is larger than the limit of 1000 bytes');
    }
    expect(render.calls).to.have.length(0);
  });

  it('accepts a body at exactly the limit', async () => {
    const exact = '^XA' + 'A'.repeat(994) + '^XZ';
    const res = await request(app).post(path).set('X-API-Key', KEYS.all).type('form').send(exact);
    expect(res.status).to.equal(200);
    expect(received()).to.have.length(1000);
  });

  it('defaults to a 1 MiB limit and 50 labels', async () => {
    const { app: defaults } = await buildApp({ render });
    const ok = await request(defaults)
      .post(path)
      .set('X-API-Key', KEYS.all)
      .type('form')
      .send('x'.repeat(1024 * 1024));
    expect(ok.status).to.equal(200);
    expect(render.calls.at(-1)!.req.maxLabels).to.equal(50);
    const tooBig = await request(defaults)
      .post(path)
      .set('X-API-Key', KEYS.all)
      .type('form')
      .send('x'.repeat(1024 * 1024 + 1));
    expect(tooBig.status).to.equal(413);
  });

  it('passes the configured label maximum and pixel budget to the renderer', async () => {
    const { app: custom } = await buildApp({ render, maxLabels: 7, maxPixels: 12345 });
    await request(custom).post(path).set('X-API-Key', KEYS.all).type('form').send('^XA^XZ');
    expect(render.calls.at(-1)!.req).to.include({ maxLabels: 7, maxPixels: 12345 });
  });
});
