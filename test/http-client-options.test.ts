// Options for clients that cannot change, over real HTTP: the ZPL as the raw query string (always served),
// and, off by default, an anonymous key, the key in ?key=, lenient paths and POST /graphics.

import { expect } from 'chai';
import type { Express } from 'express';
import { Jimp } from 'jimp';
import request from 'supertest';
import { hashKey, KEY_ID_LENGTH } from '../middleware/keys/key-record.js';
import { render } from '../renderer/index.js';
import { binaryBody, buildApp, buildFallbackApp, KEYS, labelsPath } from './helpers/http-app.js';
import { decodePng } from './helpers/png.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/upstream-fake.js';

const ZPL = '^XA^FO50,50^GB100,100,100^FS^FO50,200^A0N,30,30^FDa+b %41&c=d #1^FS^XZ';
const idOf = (key: string) => hashKey(key).slice(0, KEY_ID_LENGTH);
const isPng = (body: Buffer) => body.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));

async function localPng(zpl: string): Promise<Buffer> {
  return Buffer.from((await render(zpl, { dpmm: 8, widthIn: 4, heightIn: 6, format: 'png', index: 0 })).body);
}

describe('GET with the ZPL as the raw query string (always served)', () => {
  let app: Express;
  before(async () => {
    ({ app } = await buildApp());
  });

  for (const [name, suffix] of [
    ['with a trailing slash', '/'],
    ['without one', ''],
  ] as const) {
    it(`renders the same label as POST, ${name}`, async () => {
      const res = await request(app)
        .get(`${labelsPath('8dpmm', '4x6', '0')}${suffix}?${encodeURIComponent(ZPL)}`)
        .set('X-API-Key', KEYS.all)
        .buffer(true)
        .parse(binaryBody);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('image/png');
      expect(res.headers['x-total-count']).to.equal('1');
      expect(Buffer.compare(res.body as Buffer, await localPng(ZPL))).to.equal(0);
    });
  }

  it('takes curl --data-urlencode output as sent: an unencoded name before "=" and encoded bytes after', async () => {
    const query = '^xa^fo50,50^fdA=' + encodeURIComponent('B^fs^xz');
    const res = await request(app)
      .get(`${labelsPath('8dpmm', '4x6', '0')}/?${query}`)
      .set('X-API-Key', KEYS.all)
      .buffer(true)
      .parse(binaryBody);
    expect(res.status).to.equal(200);
    expect(Buffer.compare(res.body as Buffer, await localPng('^xa^fo50,50^fdA=B^fs^xz'))).to.equal(0);
  });

  it('still answers 404 without any ZPL, and 400 for a malformed escape', async () => {
    const none = await request(app)
      .get(`${labelsPath('8dpmm', '4x6', '0')}/`)
      .set('X-API-Key', KEYS.all);
    expect(none.status).to.equal(404);
    expect(none.text).to.equal('ERROR: HTTP 404 Not Found');
    const bad = await request(app)
      .get(`${labelsPath('8dpmm', '4x6', '0')}/?%E0%A4%A`)
      .set('X-API-Key', KEYS.all);
    expect(bad.status).to.equal(400);
    expect(bad.text).to.match(/^ERROR: /);
  });

  it('checks the key and the scope first', async () => {
    const url = `${labelsPath('8dpmm', '4x6', '0')}/?${encodeURIComponent(ZPL)}`;
    expect((await request(app).get(url)).status).to.equal(401);
    expect((await request(app).get(url).set('X-API-Key', KEYS.pdf)).status).to.equal(403);
  });
});

describe('without any client option nothing changes', () => {
  let app: Express;
  before(async () => {
    ({ app } = await buildApp());
  });
  const post = (url: string) => request(app).post(url).type('form').send(ZPL);

  it('answers a request without a key 401, and one with ?key= 401 naming the switches that allow it', async () => {
    const res = await post(labelsPath('8dpmm', '4x6', '0'));
    expect(res.status).to.equal(401);
    expect(res.body).to.deep.include({ error: 'invalid_key' });
    const query = await post(`${labelsPath('8dpmm', '4x6', '0')}?key=${KEYS.all}`);
    expect(query.status).to.equal(401);
    expect(query.body.error).to.equal('invalid_key');
    expect(query.body.message).to.include('ALLOW_QUERY_KEY=1').and.include('LEGACY_CLIENTS=1');
  });

  it('reads an empty X-Rotation as no X-Rotation (the labelary gem sends it on every request); a bad one is 400', async () => {
    const res = await request(app)
      .post(labelsPath('8dpmm', '4x6', '0'))
      .set('X-API-Key', KEYS.all)
      .set('X-Rotation', '')
      .type('form')
      .send(ZPL);
    expect(res.status).to.equal(200);
    const bad = await request(app)
      .post(labelsPath('8dpmm', '4x6', '0'))
      .set('X-API-Key', KEYS.all)
      .set('X-Rotation', '45')
      .type('form')
      .send(ZPL);
    expect(bad.status).to.equal(400);
    expect(bad.text).to.equal('ERROR: Label rotation must be 0, 90, 180 or 270 degrees');
  });

  it('answers an empty index 404 and has no /graphics', async () => {
    const empty = await request(app)
      .post(`${labelsPath('8dpmm', '4x6')}//`)
      .set('X-API-Key', KEYS.all)
      .set('Accept', 'application/pdf')
      .type('form')
      .send(ZPL);
    expect(empty.status).to.equal(404);
    const graphics = await request(app)
      .post('/compatibility/legacy/v1/graphics')
      .set('X-API-Key', KEYS.all)
      .attach('file', Buffer.from('x'), 'a.png');
    expect(graphics.status).to.equal(404);
  });
});

describe('anonymousKey: requests without X-API-Key are served as one stored key', () => {
  let app: Express;
  let logged: string[];
  before(async () => {
    logged = [];
    ({ app } = await buildApp({ anonymousKey: idOf(KEYS.png), log: (m) => logged.push(m) }));
  });

  it('renders a PNG for a request without any key', async () => {
    const res = await request(app)
      .post(`${labelsPath('8dpmm', '4x6', '0')}/`)
      .type('form')
      .send(ZPL)
      .buffer(true)
      .parse(binaryBody);
    expect(res.status).to.equal(200);
    expect(isPng(res.body as Buffer)).to.equal(true);
  });

  it('keeps that key scope: a PDF is 403 scope_denied', async () => {
    const res = await request(app)
      .post(labelsPath('8dpmm', '4x6', '0'))
      .set('Accept', 'application/pdf')
      .type('form')
      .send(ZPL);
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.include({ error: 'scope_denied', required: 'pdf', actual: 'png' });
  });

  it('still checks a key that is sent', async () => {
    const res = await request(app)
      .post(labelsPath('8dpmm', '4x6', '0'))
      .set('X-API-Key', 'k_wrong')
      .type('form')
      .send(ZPL);
    expect(res.status).to.equal(401);
    const pdf = await request(app)
      .post(labelsPath('8dpmm', '4x6', '0'))
      .set('X-API-Key', KEYS.all)
      .set('Accept', 'application/pdf')
      .type('form')
      .send(ZPL);
    expect(pdf.status).to.equal(200);
  });

  it('applies revocation of the anonymous key at once', async () => {
    const { app: revokedApp, stores } = await buildApp({ anonymousKey: idOf(KEYS.png) });
    const url = labelsPath('8dpmm', '4x6', '0');
    expect((await request(revokedApp).post(url).type('form').send(ZPL)).status).to.equal(200);
    await stores.keyStore.revoke(idOf(KEYS.png));
    const res = await request(revokedApp).post(url).type('form').send(ZPL);
    expect(res.status).to.equal(401);
    expect(res.body).to.deep.include({ error: 'invalid_key' });
  });

  it('counts its limits: requests per second of that key apply to anonymous requests', async () => {
    const limited = { key: 'k_anon_limited', scope: 'png' as const, requestsPerSecond: 1 };
    const { app: limitedApp } = await buildApp({ anonymousKey: idOf(limited.key) }, [limited]);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        (
          await request(limitedApp)
            .post(labelsPath('8dpmm', '2x1', '0'))
            .type('form')
            .send(ZPL)
        ).status,
      );
    expect(statuses).to.include(429);
  });

  it('logs the anonymous key as "anonymous" in fallback lines, never a key', async () => {
    const upstream = await startFakeUpstream();
    try {
      const lines: string[] = [];
      const { app: fb } = await buildApp({
        anonymousKey: idOf(KEYS.png),
        mode: 'fallback',
        upstream: { url: upstream.url },
        log: (m) => lines.push(m),
      });
      const res = await request(fb)
        .post(labelsPath('8dpmm', '4x6', '0'))
        .type('form')
        .send('^XA^QQ^XZ');
      expect(res.headers['x-renderer']).to.equal('upstream');
      const line = lines
        .map((l) => JSON.parse(l) as Record<string, string>)
        .find((l) => l.event === 'upstream_fallback');
      expect(line).to.deep.include({ key: 'anonymous' });
      expect(lines.join('\n')).to.not.include(KEYS.png);
    } finally {
      await upstream.close();
    }
  });
});

describe('allowQueryKey: ?key= for <img src> embeds and form posts', () => {
  let upstream: FakeUpstream;
  let app: Express;
  let logged: string[];
  before(async () => {
    ({ app, upstream, logged } = await buildFallbackApp({ allowQueryKey: true }));
  });
  after(() => upstream.close());

  it('accepts the key in the query of a GET with the ZPL in the path', async () => {
    const res = await request(app)
      .get(`${labelsPath('8dpmm', '4x6', '0')}/${encodeURIComponent('^XA^FO10,10^GB50,50,50^FS^XZ')}?key=${KEYS.all}`)
      .buffer(true)
      .parse(binaryBody);
    expect(res.status).to.equal(200);
    expect(isPng(res.body as Buffer)).to.equal(true);
  });

  it('refuses an unknown query key 401 and keeps scopes', async () => {
    expect(
      (
        await request(app)
          .post(`${labelsPath('8dpmm', '4x6', '0')}?key=k_nope`)
          .type('form')
          .send(ZPL)
      ).status,
    ).to.equal(401);
    expect(
      (
        await request(app)
          .post(`${labelsPath('8dpmm', '4x6', '0')}?key=${KEYS.pdf}`)
          .type('form')
          .send(ZPL)
      ).status,
    ).to.equal(403);
  });

  // Fallback requests go to a path rebuilt from the validated parameters (main, issue 16b): no query at all.
  it('strips the key before forwarding upstream (the rebuilt path has no query) and never logs it', async () => {
    const res = await request(app)
      .post(`${labelsPath('8dpmm', '4x6', '0')}?trace=1&key=${KEYS.all}&x=2`)
      .type('form')
      .send('^XA^QQ^XZ');
    expect(res.status).to.equal(200);
    expect(res.headers['x-renderer']).to.equal('upstream');
    const sent = upstream.received.at(-1)!;
    expect(sent.url).to.equal('/printers/8dpmm/labels/4x6/0');
    expect(sent.headers['x-api-key']).to.equal('k_up');
    expect(logged.length).to.be.greaterThan(0);
    expect(logged.join('\n')).to.not.include(KEYS.all);
  });

  it('forwards a raw-query GET it cannot draw with its ZPL re-encoded as the query, and without the key', async () => {
    const zpl = '^XA^QQ^FO1,1^FDa b&c^FS^XZ';
    const res = await request(app).get(
      `${labelsPath('8dpmm', '4x6', '0')}/?key=${KEYS.all}&${encodeURIComponent(zpl)}`,
    );
    expect(res.status).to.equal(200);
    expect(res.headers['x-renderer']).to.equal('upstream');
    const sent = upstream.received.at(-1)!;
    expect(sent.method).to.equal('GET');
    expect(sent.url).to.equal(`/printers/8dpmm/labels/4x6/0/?${encodeURIComponent(zpl)}`);
    expect(sent.url).to.not.include(KEYS.all);
  });

  it('serves a raw-query GET whose query also carries the key', async () => {
    const res = await request(app)
      .get(`${labelsPath('8dpmm', '4x6', '0')}/?key=${KEYS.all}&${encodeURIComponent(ZPL)}`)
      .buffer(true)
      .parse(binaryBody);
    expect(res.status).to.equal(200);
    expect(Buffer.compare(res.body as Buffer, await localPng(ZPL))).to.equal(0);
  });
});

describe('lenientPaths: /labels/4x6// is every label', () => {
  it('answers the all-labels PDF for an empty index', async () => {
    const { app } = await buildApp({ lenientPaths: true });
    const two = '^XA^FO10,10^GB50,50,50^FS^XZ^XA^FO10,10^GB20,20,20^FS^XZ';
    const res = await request(app)
      .post(`${labelsPath('8dpmm', '4x6')}//`)
      .set('X-API-Key', KEYS.all)
      .set('Accept', 'application/pdf')
      .type('form')
      .send(two)
      .buffer(true)
      .parse(binaryBody);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('application/pdf');
    expect(res.headers['x-total-count']).to.equal('2');
    expect((res.body as Buffer).toString('latin1').match(/\/Type\s*\/Page\b/g)).to.have.length(2);
    // A PNG at the all-labels path is the first label (three real clients' default calls do this).
    const png = await request(app)
      .post(`${labelsPath('8dpmm', '4x6')}//`)
      .set('X-API-Key', KEYS.all)
      .type('form')
      .send(two);
    expect(png.status).to.equal(200);
    expect(png.headers['content-type']).to.equal('image/png');
    expect(png.headers['x-total-count']).to.equal('2');
  });
});

describe('graphicsEndpoint: POST /graphics turns an image into one ^GFA field', () => {
  let app: Express;
  before(async () => {
    ({ app } = await buildApp({ graphicsEndpoint: true }));
  });
  const GRAPHICS = '/compatibility/legacy/v1/graphics';

  /** A 20x10 image: the left 12 columns black, the rest white. */
  async function twoTone(mime: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/bmp'): Promise<Buffer> {
    const image = new Jimp({ width: 20, height: 10, color: 0xffffffff });
    for (let y = 0; y < 10; y++) for (let x = 0; x < 12; x++) image.setPixelColor(0x000000ff, x, y);
    return image.getBuffer(mime);
  }

  for (const mime of ['image/png', 'image/jpeg', 'image/gif', 'image/bmp'] as const) {
    it(`converts a ${mime.slice(6).toUpperCase()} file to ZPL that draws the same picture`, async () => {
      const res = await request(app)
        .post(GRAPHICS)
        .set('X-API-Key', KEYS.all)
        .attach('file', await twoTone(mime), `logo.${mime.slice(6)}`);
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/plain/);
      const zpl = res.text;
      expect(zpl.match(/\^GFA/g)).to.have.length(1);
      expect(zpl).to.match(/^\^XA\^FO0,0\^GFA,30,30,3,[0-9A-F]{60}\^FS\^XZ$/);
      expect(zpl).to.include('FFF000'.repeat(10));
      const png = decodePng(
        (await render(zpl, { dpmm: 8, widthIn: 0.2, heightIn: 0.1, format: 'png', index: 0 })).body,
      );
      expect(png.gray[0]).to.equal(0);
      expect(png.gray[11]).to.equal(0);
      expect(png.gray[12]).to.equal(255);
    });
  }

  it('returns the same data as JSON for Accept: application/json', async () => {
    const file = await twoTone('image/png');
    const text = await request(app).post(GRAPHICS).set('X-API-Key', KEYS.all).attach('file', file, 'logo.png');
    const json = await request(app)
      .post(GRAPHICS)
      .set('X-API-Key', KEYS.all)
      .set('Accept', 'application/json')
      .attach('file', file, 'logo.png');
    expect(json.status).to.equal(200);
    expect(json.body).to.deep.equal({ totalBytes: 30, rowBytes: 3, width: 20, height: 10, data: 'FFF000'.repeat(10) });
    expect(text.text).to.include(`,${json.body.data as string}^FS`);
  });

  it('thresholds by default and dithers on ?dither=true', async () => {
    const grey = new Jimp({ width: 64, height: 64, color: 0x646464ff }); // 100 of 255: darker than half
    const file = await grey.getBuffer('image/png');
    const inkShare = (data: string) =>
      [...Buffer.from(data, 'hex')].reduce((n, b) => n + b.toString(2).split('1').length - 1, 0) / (64 * 64);
    const plain = await request(app)
      .post(GRAPHICS)
      .set('X-API-Key', KEYS.all)
      .set('Accept', 'application/json')
      .attach('file', file, 'g.png');
    const dithered = await request(app)
      .post(`${GRAPHICS}?dither=true`)
      .set('X-API-Key', KEYS.all)
      .set('Accept', 'application/json')
      .attach('file', file, 'g.png');
    expect(inkShare(plain.body.data as string)).to.equal(1);
    expect(inkShare(dithered.body.data as string)).to.be.within(0.55, 0.66); // 1 - 100/255 = 0.61
  });

  it('refuses what is no image, and needs a key like every endpoint', async () => {
    const bad = await request(app)
      .post(GRAPHICS)
      .set('X-API-Key', KEYS.all)
      .attach('file', Buffer.from('^XA^XZ'), 'a.txt');
    expect(bad.status).to.equal(400);
    expect(bad.text).to.match(/^ERROR: /);
    expect(
      (
        await request(app)
          .post(GRAPHICS)
          .attach('file', await twoTone('image/png'), 'a.png')
      ).status,
    ).to.equal(401);
  });

  it('refuses an image larger than the limit from its header, before decoding it', async () => {
    const header = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header);
    header.writeUInt32BE(13, 8);
    header.write('IHDR', 12, 'latin1');
    header.writeUInt32BE(60000, 16);
    header.writeUInt32BE(60000, 20);
    const res = await request(app).post(GRAPHICS).set('X-API-Key', KEYS.all).attach('file', header, 'bomb.png');
    expect(res.status).to.equal(413);
    expect(res.text).to.match(/^ERROR: Image is 60000x60000 pixels/);
  });
});

describe("graphicsEndpoint with fallthrough: /graphics is the router's, other paths the host's", () => {
  it('serves /graphics and passes anything else on', async () => {
    const { default: express } = await import('express');
    const { createLegacyRouter, createMemoryStores } = await import('../middleware/index.js');
    const stores = createMemoryStores();
    await stores.keyStore.add({ key: KEYS.all, scope: 'all' });
    const app = express();
    app.use(
      '/',
      createLegacyRouter({ ...stores, renderThreads: 0, fallthrough: true, graphicsEndpoint: true, log: () => {} }),
    );
    app.get('/health', (_req, res) => {
      res.send('host');
    });
    const image = await new Jimp({ width: 8, height: 1, color: 0x000000ff }).getBuffer('image/png');
    const res = await request(app).post('/graphics').set('X-API-Key', KEYS.all).attach('file', image, 'a.png');
    expect(res.text).to.equal('^XA^FO0,0^GFA,1,1,1,FF^FS^XZ');
    expect((await request(app).get('/health')).text).to.equal('host');
  });
});
