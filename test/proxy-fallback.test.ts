// Fallback mode: documents our renderer cannot draw (and PDF page composition) go to the legacy service
// with the exact body bytes, headers kept and our key instead of the client's; everything else is local.

import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { binaryBody, buildApp, buildFallbackApp, KEYS, labelsPath } from './helpers/http-app.js';
import { decodePng, inkCount } from './helpers/png.js';
import { deadUpstreamUrl, hang, UPSTREAM_PNG, type FakeUpstream } from './helpers/upstream-fake.js';

const UPSTREAM_KEY = 'k_upstream_secret';
/** `^QQ` is no ZPL command: our renderer reports it in `unsupported`. */
const UNSUPPORTED = '^XA^FO10,10^GB50,50,50^FS^QQ^FO10,80^FDa+b %41 & c=d^FS^XZ';
const SUPPORTED = '^XA^FO10,10^GB50,50,50^FS^XZ';

describe('proxy fallback to the legacy service', () => {
  let upstream: FakeUpstream;
  let app: Express;
  let logged: string[];

  beforeEach(async () => {
    ({ app, upstream, logged } = await buildFallbackApp({}, UPSTREAM_KEY));
  });
  afterEach(() => upstream.close());

  const path = labelsPath('8dpmm', '2x1', '0');

  it('forwards a raw body with an unsupported command byte for byte and streams the answer back', async () => {
    const body = Buffer.from(UNSUPPORTED);
    const res = await request(app)
      .post(`${path}?trace=1`)
      .set('X-API-Key', KEYS.all)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .set('X-Custom', 'kept')
      .set('X-Request-Id', 'req-fb-1')
      .send(UNSUPPORTED)
      .buffer(true)
      .parse(binaryBody);

    expect(res.status).to.equal(200);
    expect(res.headers['x-renderer']).to.equal('upstream');
    expect(res.headers['x-upstream']).to.equal('fake');
    expect(res.headers['content-type']).to.equal('image/png');
    expect(Buffer.compare(res.body as Buffer, UPSTREAM_PNG)).to.equal(0);

    expect(upstream.received).to.have.length(1);
    const [sent] = upstream.received;
    expect(sent!.method).to.equal('POST');
    expect(sent!.url).to.equal('/printers/8dpmm/labels/2x1/0'); // rebuilt from the validated parameters only
    expect(Buffer.compare(sent!.body, body)).to.equal(0);
    expect(sent!.headers['content-type']).to.equal('application/x-www-form-urlencoded');
    expect(sent!.headers['content-length']).to.equal(String(body.length));
    expect(sent!.headers).to.not.have.property('x-custom'); // not on the allowlist
    expect(sent!.headers['x-api-key']).to.equal(UPSTREAM_KEY);
    expect(sent!.headers['x-request-id']).to.equal('req-fb-1');
    const line = logged
      .map((l) => JSON.parse(l) as Record<string, string>)
      .find((l) => l.event === 'upstream_fallback');
    expect(line).to.deep.include({ requestId: 'req-fb-1', reason: 'unsupported ^QQ' });
  });

  it('forwards binary bytes untouched', async () => {
    const body = Buffer.concat([
      Buffer.from(UNSUPPORTED.replace('^XZ', '')),
      Buffer.from([0x00, 0xff, 0x80, 0x0d, 0x0a]),
      Buffer.from('^XZ'),
    ]);
    const res = await request(app)
      .post(path)
      .set('X-API-Key', KEYS.all)
      .set('Content-Type', 'application/octet-stream')
      .send(body);
    expect(res.status).to.equal(200);
    expect(res.headers['x-renderer']).to.equal('upstream');
    expect(Buffer.compare(upstream.received[0]!.body, body)).to.equal(0);
    expect(upstream.received[0]!.headers['content-type']).to.equal('application/octet-stream');
  });

  it('forwards the original multipart message and content type, not only the file', async () => {
    const boundary = '----zpl-boundary-7MA4YWxk';
    const multipart = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="note"\r\n\r\nfirst+field%20\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="label.zpl"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n${UNSUPPORTED}\r\n--${boundary}--\r\n`,
    );
    const contentType = `multipart/form-data; boundary=${boundary}`;
    const res = await request(app)
      .post(path)
      .set('X-API-Key', KEYS.all)
      .set('Content-Type', contentType)
      .send(multipart);

    expect(res.status).to.equal(200);
    expect(res.headers['x-renderer']).to.equal('upstream');
    const [sent] = upstream.received;
    expect(sent!.headers['content-type']).to.equal(contentType);
    expect(Buffer.compare(sent!.body, multipart)).to.equal(0);
  });

  it('re-sends a chunked body with its exact bytes and a Content-Length', async () => {
    const pending = request(app).post(path).set('X-API-Key', KEYS.all).set('Content-Type', 'text/plain');
    pending.write(UNSUPPORTED.slice(0, 20));
    pending.write(UNSUPPORTED.slice(20));
    const res = await pending;
    expect(res.status).to.equal(200);
    const [sent] = upstream.received;
    expect(sent!.body.toString('latin1')).to.equal(UNSUPPORTED);
    expect(sent!.headers['content-length']).to.equal(String(Buffer.byteLength(UNSUPPORTED)));
    expect(sent!.headers['transfer-encoding']).to.equal(undefined);
  });

  it('forwards a GET with the ZPL in the path unchanged', async () => {
    const encoded = encodeURIComponent(UNSUPPORTED);
    const res = await request(app).get(`${path}/${encoded}`).set('X-API-Key', KEYS.all);
    expect(res.status).to.equal(200);
    expect(res.headers['x-renderer']).to.equal('upstream');
    expect(upstream.received[0]!.method).to.equal('GET');
    expect(upstream.received[0]!.url).to.equal(`/printers/8dpmm/labels/2x1/0/${encoded}`);
  });

  it('renders documents it can draw itself and marks them local', async () => {
    const res = await request(app)
      .post(path)
      .set('X-API-Key', KEYS.all)
      .type('form')
      .send(SUPPORTED)
      .buffer(true)
      .parse(binaryBody);
    expect(res.status).to.equal(200);
    expect(res.headers['x-renderer']).to.equal('local');
    const image = decodePng(res.body as Buffer);
    expect([image.width, image.height]).to.deep.equal([406, 203]);
    expect(inkCount(image)).to.equal(50 * 50);
    expect(upstream.received).to.have.length(0);
  });

  it('forwards PDF requests that ask for page composition, which it does not do', async () => {
    upstream.answer = (_r, res) =>
      res.status(200).type('application/pdf').set('X-Total-Count', '2').end('%PDF-composed');
    const res = await request(app)
      .post(labelsPath('8dpmm', '2x1'))
      .set('X-API-Key', KEYS.all)
      .set('Accept', 'application/pdf')
      .set('X-Page-Size', 'Letter')
      .type('form')
      .send(SUPPORTED + SUPPORTED);
    expect(res.status).to.equal(200);
    expect(res.headers['x-renderer']).to.equal('upstream');
    expect(res.headers['x-total-count']).to.equal('2');
    expect(upstream.received[0]!.headers['x-page-size']).to.equal('Letter');

    const plain = await request(app)
      .post(labelsPath('8dpmm', '2x1'))
      .set('X-API-Key', KEYS.all)
      .set('Accept', 'application/pdf')
      .type('form')
      .send(SUPPORTED);
    expect(plain.headers['x-renderer']).to.equal('local');
    expect(upstream.received).to.have.length(1);
  });

  it('checks keys, scope and its own validation before anything goes upstream', async () => {
    const missing = await request(app).post(path).type('form').send(UNSUPPORTED);
    const wrongScope = await request(app).post(path).set('X-API-Key', KEYS.pdf).type('form').send(UNSUPPORTED);
    const badDensity = await request(app)
      .post(labelsPath('7dpmm', '2x1', '0'))
      .set('X-API-Key', KEYS.all)
      .type('form')
      .send(UNSUPPORTED);
    expect([missing.status, wrongScope.status, badDensity.status]).to.deep.equal([401, 403, 400]);
    expect(upstream.received).to.have.length(0);
  });

  it('answers 502 with an ERROR: text when the legacy service is unreachable', async () => {
    const { app: orphan } = await buildApp({ mode: 'fallback', upstream: { url: await deadUpstreamUrl() } });
    const res = await request(orphan).post(path).set('X-API-Key', KEYS.all).type('form').send(UNSUPPORTED);
    expect(res.status).to.equal(502);
    expect(res.headers['content-type']).to.match(/^text\/plain/);
    expect(res.text).to.match(/^ERROR: Upstream renderer is unavailable \(ECONNREFUSED\)$/);
  });

  it('answers 502 when the legacy service does not answer within upstream.timeoutMs', async () => {
    upstream.answer = hang(upstream);
    const { app: impatient } = await buildApp({ mode: 'fallback', upstream: { url: upstream.url, timeoutMs: 100 } });
    const res = await request(impatient).post(path).set('X-API-Key', KEYS.all).type('form').send(UNSUPPORTED);
    expect(res.status).to.equal(502);
    expect(res.text).to.equal('ERROR: Upstream renderer did not answer within 100 ms');
    expect(upstream.held).to.have.length(1);
  });

  it('passes an upstream 429 through with its headers and body', async () => {
    upstream.answer = (_r, res) => {
      res
        .status(429)
        .set({
          'Retry-After': '7',
          'X-RateLimit-Limit': '3',
          'X-RateLimit-Remaining': '0',
          'X-RateLimit-Reset': '1700000000',
        })
        .json({ error: 'rate_limited', message: 'upstream says slow down' });
    };
    const res = await request(app).post(path).set('X-API-Key', KEYS.all).type('form').send(UNSUPPORTED);
    expect(res.status).to.equal(429);
    expect(res.headers).to.include({
      'retry-after': '7',
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '1700000000',
    });
    expect(res.body).to.deep.equal({ error: 'rate_limited', message: 'upstream says slow down' });
  });

  it("sends no X-API-Key upstream when none is configured, never the client's", async () => {
    const { app: keyless } = await buildApp({ mode: 'fallback', upstream: { url: upstream.url } });
    await request(keyless).post(path).set('X-API-Key', KEYS.all).type('form').send(UNSUPPORTED);
    expect(upstream.received[0]!.headers).to.not.have.property('x-api-key');
  });

  it("counts the pages the legacy service rendered against the key's daily limit", async () => {
    const { app: limited } = await buildApp({ mode: 'fallback', upstream: { url: upstream.url } }, [
      { key: 'k_two_pages', scope: 'all', pagesPerDay: 2 },
    ]);
    upstream.answer = (_r, res) => res.status(200).type('application/pdf').set('X-Total-Count', '2').end('%PDF-two');
    const pdf = (): request.Test =>
      request(limited)
        .post(labelsPath('8dpmm', '2x1'))
        .set('X-API-Key', 'k_two_pages')
        .set('Accept', 'application/pdf')
        .type('form')
        .send(UNSUPPORTED + UNSUPPORTED);
    expect((await pdf()).status).to.equal(200);
    const refused = await pdf();
    expect(refused.status).to.equal(429);
    expect(refused.body.limit_type).to.equal('pages_per_day');
    expect(upstream.received).to.have.length(1);
  });

  it('refuses to build without an upstream URL', async () => {
    let error: Error | undefined;
    try {
      await buildApp({ mode: 'fallback' });
    } catch (err) {
      error = err as Error;
    }
    expect(error?.message).to.equal(
      "Upstream mode fallback needs the legacy service's base URL (http or https) in upstream.url",
    );
  });
});
