// POST /graphics answers in the type asked, as the legacy service does: ZPL by default (`text/plain`, as always),
// JSON, and with the outputs switched on `application/zpl` and a print job in each printer language. A job, read by
// its language's reader (test/helpers/printer-jobs/), is one label the size of the image at `?dpmm=` (default 8) and
// prints exactly the dots of the answer's ZPL drawn. Off, every answer is as before (test/switches-off.test.ts).

import { expect } from 'chai';
import request from 'supertest';
import { EXTRA_OUTPUTS } from '../middleware/index.js';
import { OUTPUT_TYPES, PRINTER_LANGUAGES, type Dpmm } from '../renderer/api.js';
import { render } from '../renderer/render.js';
import { BASE, binaryBody, buildApp, KEYS } from './helpers/http-app.js';
import { decodePng, type DecodedPng } from './helpers/png.js';
import { DPI, expectJobPrints } from './helpers/printer-jobs/expect-job.js';
import { greyPng } from './helpers/upstream-png.js';

type App = Parameters<typeof request>[0];
const GRAPHICS = `${BASE}/graphics`;

/** A 37x23 image (a width off the byte): a frame, a diagonal and a hole, nothing on a grid. */
const IMAGE = greyPng(37, 23, (x, y) => x < 2 || y < 2 || x > 34 || y > 20 || Math.abs(x - 1.6 * y) < 1.5);

function send(app: App, path: string, accept: string | undefined, file: Buffer = IMAGE, key: string = KEYS.all) {
  let r = request(app).post(path).set('X-API-Key', key);
  if (accept !== undefined) r = r.set('Accept', accept);
  return r.buffer(true).parse(binaryBody).attach('file', file, 'image.png');
}

/** The ZPL answer drawn as the bitonal PNG of a label the image's size at `dpmm`. */
async function drawn(zpl: string, width: number, height: number, dpmm: Dpmm): Promise<DecodedPng> {
  const req = { dpmm, widthIn: width / DPI[dpmm], heightIn: height / DPI[dpmm], index: 0, quality: 'bitonal' } as const;
  const png = decodePng((await render(zpl, { ...req, format: 'png' })).body);
  expect([png.width, png.height], 'a label the size of the image').to.deep.equal([width, height]);
  return png;
}

describe('POST /graphics answers in the type asked', function () {
  this.timeout(120_000);
  let app: App;
  before(async () => {
    ({ app } = await buildApp({ graphicsEndpoint: true, outputs: EXTRA_OUTPUTS }));
  });

  it('ZPL by default as text/plain; application/zpl the same ZPL so labelled; JSON its numbers', async () => {
    const text = await send(app, GRAPHICS, undefined);
    expect([text.status, text.headers['content-type']]).to.deep.equal([200, 'text/plain; charset=utf-8']);
    const zpl = (text.body as Buffer).toString();
    expect(zpl).to.match(/^\^XA\^FO0,0\^GFA,115,115,5,[0-9A-F]{230}\^FS\^XZ$/);
    const asked = await send(app, GRAPHICS, 'application/zpl');
    expect([asked.headers['content-type'], (asked.body as Buffer).toString()]).to.deep.equal(['application/zpl', zpl]);
    const json = await send(app, GRAPHICS, 'application/json');
    expect(json.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(JSON.parse((json.body as Buffer).toString())).to.include({ width: 37, height: 23, rowBytes: 5 });
  });

  for (const dpmm of [6, 8, 12, 24] as const) {
    it(`${dpmm} dpmm: each print job is one label the image's size and density, the dots of the ZPL answer drawn`, async () => {
      const zpl = (await send(app, GRAPHICS, undefined)).body.toString() as string;
      const png = await drawn(zpl, 37, 23, dpmm);
      for (const language of PRINTER_LANGUAGES) {
        const res = await send(app, `${GRAPHICS}?dpmm=${dpmm}dpmm`, OUTPUT_TYPES[language].mediaType);
        expect([res.status, res.headers['content-type']], language).to.deep.equal([
          200,
          OUTPUT_TYPES[language].mediaType,
        ]);
        const label = { dpmm, widthIn: 37 / DPI[dpmm], heightIn: 23 / DPI[dpmm], width: 37, height: 23 };
        expectJobPrints(language, res.body as Buffer, label, [png], `/graphics?dpmm=${dpmm}`);
      }
    });
  }

  it('without ?dpmm= a job is at 8 dpmm; dithered and thresholded as the ZPL answer is; a bad density is a 400 for jobs only', async () => {
    const path = `${GRAPHICS}?dither=true&threshold=140`;
    // A 301x97 image: two patterns the threshold and the dithering each decide.
    const file = greyPng(301, 97, (x, y) => (x * 7 + y * 13) % 5 < 2 || (x > 150 && (x + y) % 3 === 0));
    const zpl = (await send(app, path, 'text/plain', file)).body.toString() as string;
    const png = await drawn(zpl, 301, 97, 8);
    for (const language of PRINTER_LANGUAGES) {
      const res = await send(app, path, `image/png;q=0, ${OUTPUT_TYPES[language].mediaType}`, file);
      const label = { dpmm: 8 as const, widthIn: 301 / 203, heightIn: 97 / 203, width: 301, height: 97 };
      expectJobPrints(language, res.body as Buffer, label, [png], '/graphics dithered');
    }
    const bad = await send(app, `${GRAPHICS}?dpmm=7`, 'application/epl');
    expect([bad.status, (bad.body as Buffer).toString()]).to.deep.equal([
      400,
      'ERROR: Unknown print density 7; valid values: 6, 8, 12, 24',
    ]);
    expect((await send(app, `${GRAPHICS}?dpmm=7`, undefined)).status).to.equal(200);
  });

  it('the first type listed that is served decides; a type switched off is passed over, as it always was', async () => {
    const { app: eplOnly } = await buildApp({ graphicsEndpoint: true, outputs: ['epl'] });
    const type = async (accept: string) => (await send(eplOnly, GRAPHICS, accept)).headers['content-type'];
    expect(await type('application/pcl6')).to.equal('text/plain; charset=utf-8');
    expect(await type('application/zpl')).to.equal('text/plain; charset=utf-8');
    expect(await type('application/pcl6, application/epl')).to.equal('application/epl');
    expect(await type('application/json, application/epl')).to.equal('application/json; charset=utf-8');
    expect(await type('application/epl, application/json')).to.equal('application/epl');
    expect(await type('text/plain, application/epl')).to.equal('application/epl');
    // What it always did: JSON when the header names it anywhere, if nothing listed is served.
    expect(await type('text/html, application/json;q=0')).to.equal('application/json; charset=utf-8');
  });

  it('a print job needs a key of PNG scope, as every answer of /graphics does', async () => {
    const png = await send(app, GRAPHICS, 'application/sbpl', IMAGE, KEYS.png);
    expect([png.status, png.headers['content-type']]).to.deep.equal([200, 'application/sbpl']);
    const pdf = await send(app, GRAPHICS, 'application/sbpl', IMAGE, KEYS.pdf);
    expect(pdf.status).to.equal(403);
  });
});
