// Hostile images (issue: hostile input, defects 1, 2 and 4): every size field of an image from outside is read
// before anything decodes it (each PNG IHDR, each GIF frame, each JPEG frame, the BMP header); POST /graphics
// refuses over the pixel budget in the documented shape and decodes off the event loop; a shadow comparison
// never decodes an upstream image whose declared size is not ours.

import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import request from 'supertest';
import type { ShadowOutcome } from '../middleware/index.js';
import { readImageHeader } from '../renderer/index.js';
import { buildApp, KEYS, labelsPath, listen, type Listening } from './helpers/http-app.js';
import {
  bigFrameGif,
  bmpHeader,
  bombPng,
  greyPngOfSide,
  twoFrameJpeg,
  twoHeaderPng,
} from './helpers/hostile-images.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/upstream-fake.js';

const GRAPHICS = '/compatibility/legacy/v1/graphics';
const LIMIT = 4096 * 4096;

describe('readImageHeader reads every size field', () => {
  it('takes the largest of two PNG IHDRs, a GIF screen and its frames, two JPEG frames, and the BMP header', () => {
    expect(readImageHeader(twoHeaderPng(30000, 30000))).to.deep.include({
      format: 'png',
      width: 30000,
      height: 30000,
      pixels: 9e8,
    });
    expect(readImageHeader(twoHeaderPng(30000, 30000))!.sizes).to.deep.equal([
      { width: 1, height: 1 },
      { width: 30000, height: 30000 },
    ]);
    expect(readImageHeader(bigFrameGif(65535, 65535))).to.deep.include({ format: 'gif', width: 65535, height: 65535 });
    expect(readImageHeader(twoFrameJpeg(8000, 6000))).to.deep.include({ format: 'jpeg', width: 8000, height: 6000 });
    expect(readImageHeader(bmpHeader(5000, 4000))).to.deep.include({ format: 'bmp', width: 5000, height: 4000 });
    expect(readImageHeader(Buffer.from('not an image'))).to.equal(undefined);
  });
});

describe('POST /graphics with hostile images', () => {
  let served: Listening;
  before(async () => {
    served = await listen((await buildApp({ graphicsEndpoint: true })).app);
  });
  after(() => served.close());

  const attacks = [
    ['a PNG whose second IHDR is 5000x5000 (the first says 1x1)', twoHeaderPng(5000, 5000), 'a.png', '5000x5000'],
    ['a GIF with a 1x1 screen and a 5000x5000 frame', bigFrameGif(5000, 5000), 'a.gif', '5000x5000'],
    ['a JPEG whose second frame header is 8000x8000', twoFrameJpeg(8000, 8000), 'a.jpg', '8000x8000'],
    ['a BMP declaring 5000x5000', bmpHeader(5000, 5000), 'a.bmp', '5000x5000'],
  ] as const;
  for (const [name, image, file, size] of attacks) {
    it(`refuses ${name} with 413 before decoding it`, async () => {
      const res = await request(served.server).post(GRAPHICS).set('X-API-Key', KEYS.all).attach('file', image, file);
      expect(res.status).to.equal(413);
      expect(res.text).to.equal(`ERROR: Image is ${size} pixels; the limit is ${LIMIT} pixels`);
    });
  }

  it('converts legal 4096x4096 images off the event loop: a request sent while one converts is answered first', async () => {
    const big = await greyPngOfSide(4096);
    const boundary = 'hostile-images-boundary';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      big,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const order: string[] = [];
    const convert = (): Promise<number> =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: served.port,
            path: `${GRAPHICS}?dither=true`,
            method: 'POST',
            headers: {
              'X-API-Key': KEYS.all,
              'Content-Type': `multipart/form-data; boundary=${boundary}`,
              'Content-Length': body.length,
            },
          },
          (res) => {
            res.resume();
            res.on('end', () => {
              order.push('conversion');
              resolve(res.statusCode ?? 0);
            });
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    // Three at once: once the first is answered, the server has long read the other two and is converting one.
    const conversions = [convert(), convert(), convert()];
    await Promise.race(conversions);
    const quick = await request(served.server)
      .post(labelsPath('8dpmm', '2x1', '0'))
      .set('X-API-Key', KEYS.all)
      .set('X-Rotation', 'sideways')
      .send('^XA^XZ');
    order.push('quick');
    expect(quick.status).to.equal(400);
    expect(await Promise.all(conversions)).to.deep.equal([200, 200, 200]);
    expect(order).to.deep.equal(['conversion', 'quick', 'conversion', 'conversion']);
  });
});

describe('shadow comparison against a decompression bomb from the upstream', () => {
  let upstream: FakeUpstream;
  before(async () => {
    upstream = await startFakeUpstream();
  });
  after(() => upstream.close());

  it('scores a PNG declaring 30000x30000 as 0 (sizes differ) without decoding it', async () => {
    const bomb = await bombPng(30000, 30000);
    upstream.answer = (_r, res) => res.status(200).type('image/png').set('X-Total-Count', '1').end(bomb);
    let settle: (o: ShadowOutcome) => void = () => {};
    const outcome = new Promise<ShadowOutcome>((resolve) => {
      settle = resolve;
    });
    const { app } = await buildApp({
      mode: 'shadow',
      upstream: { url: upstream.url },
      shadow: { sampleRate: 1, onSettled: settle },
    });
    const res = await request(app)
      .post(labelsPath('8dpmm', '2x1', '0'))
      .set('X-API-Key', KEYS.all)
      .type('text')
      .send('^XA^FO10,10^GB50,50,50^FS^XZ');
    expect(res.status).to.equal(200);
    const settled = await outcome;
    expect(settled.outcome).to.equal('divergent');
    const { event } = settled as Extract<ShadowOutcome, { outcome: 'divergent' }>;
    expect(event.score).to.equal(0);
    expect(event.upstreamStatus).to.equal(200);
    expect(event.bytes.upstream).to.equal(bomb.length);
  });
});
