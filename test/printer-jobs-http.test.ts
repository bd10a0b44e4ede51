// Print jobs over real HTTP, through the real renderer in the render pool: `Accept: application/ipl` (epl, dpl, sbpl,
// pcl5, pcl6) on the single-label and all-labels endpoints answers a job that, read by the language's reader
// (test/helpers/printer-jobs/, written from its manual), sets the label's size and density and prints exactly the dots
// of the `X-Quality: Bitonal` PNG of the same request. Headers, scopes, the linter, rotation, pages per day, the
// switch, OpenAPI, proxy, fallback and shadow modes know the types. Off, each is today's 406 (test/switches-off.test.ts).

import { expect } from 'chai';
import request from 'supertest';
import { loadLabels } from '../bench/labels.js';
import { EXTRA_OUTPUTS, type ShadowOutcome } from '../middleware/index.js';
import { buildOpenApiDocument } from '../middleware/ops/openapi.js';
import { OUTPUT_TYPES, PRINTER_LANGUAGES, type Dpmm, type PrinterLanguage } from '../renderer/api.js';
import { readClientOptions } from '../server/config.js';
import { binaryBody, buildApp, KEYS, labelsPath } from './helpers/http-app.js';
import { decodePng, type DecodedPng } from './helpers/png.js';
import { expectJobPrints, printedLabel } from './helpers/printer-jobs/expect-job.js';
import { startFakeUpstream } from './helpers/upstream-fake.js';

type App = Parameters<typeof request>[0];

function post(app: App, path: string, zpl: string | Buffer, headers: Record<string, string>, key: string = KEYS.all) {
  let r = request(app).post(path).set('X-API-Key', key);
  for (const [k, v] of Object.entries(headers)) r = r.set(k, v);
  return r
    .buffer(true)
    .parse(binaryBody)
    .send(typeof zpl === 'string' ? Buffer.from(zpl, 'latin1') : zpl);
}

/** The label at `index` as the bitonal PNG of the same request, turned the same. */
async function bitonalPng(
  app: App,
  at: { dpmm: Dpmm; size: string; index: number },
  zpl: string | Buffer,
  headers: Record<string, string> = {},
): Promise<{ png: DecodedPng; totalCount: string; warnings: string | undefined }> {
  const res = await post(app, labelsPath(`${at.dpmm}dpmm`, at.size, String(at.index)), zpl, {
    ...headers,
    Accept: 'image/png',
    'X-Quality': 'Bitonal',
  });
  expect(res.status, (res.body as Buffer).toString()).to.equal(200);
  return {
    png: decodePng(res.body as Buffer),
    totalCount: res.headers['x-total-count'] as string,
    warnings: res.headers['x-warnings'] as string | undefined,
  };
}

/** A job's answer: 200, the type asked for, the format's file name. */
function expectJobAnswer(res: request.Response, language: PrinterLanguage, what: string): Buffer {
  expect(res.status, `${what} ${language}: ${(res.body as Buffer).toString().slice(0, 200)}`).to.equal(200);
  expect(res.headers['content-type'], `${what} ${language}`).to.equal(OUTPUT_TYPES[language].mediaType);
  expect(res.headers['content-disposition'], `${what} ${language}`).to.equal(
    `inline; filename="label.${OUTPUT_TYPES[language].extension}"`,
  );
  expect(res.headers['x-renderer']).to.equal('local');
  return res.body as Buffer;
}

const carrier = loadLabels('carrier');
const DENSITIES: readonly Dpmm[] = [6, 8, 12, 24];
const sizeOf = (label: { widthIn: number; heightIn: number }): string => `${label.widthIn}x${label.heightIn}`;

/** Three carrier labels and one printed twice by ^PQ: five labels. */
const DOCUMENT = Buffer.concat([
  ...carrier.slice(0, 3).map((l) => l.zpl),
  Buffer.from('^XA^FO40,40^GB300,200,12^FS^FO60,300^A0N,60,60^FDCOPY^FS^PQ2^XZ'),
]);

describe('print jobs over HTTP', function () {
  this.timeout(0);
  let app: App;
  before(async () => {
    ({ app } = await buildApp({ outputs: EXTRA_OUTPUTS }));
  });

  it('the corpus has the 26 carrier labels', () => {
    expect(carrier).to.have.length(26);
  });

  // Every carrier label at one density (the four in turn), on one endpoint (the two in turn): every label, density,
  // endpoint and language is served over HTTP; test/printer-jobs.test.ts gives every label at every density to render().
  for (const [d, dpmm] of DENSITIES.entries()) {
    it(`${dpmm} dpmm: carrier labels on both endpoints, each language prints the bitonal PNG's dots, size and density`, async () => {
      const labels = carrier.filter((_, i) => i % DENSITIES.length === d);
      for (const [n, label] of labels.entries()) {
        const at = { dpmm, size: sizeOf(label), index: 0 };
        const { png, totalCount } = await bitonalPng(app, at, label.zpl);
        const allLabels = n % 2 === 1;
        const path = allLabels ? labelsPath(`${dpmm}dpmm`, at.size) : labelsPath(`${dpmm}dpmm`, at.size, '0');
        const pngs = allLabels ? [png, ...(await morePngs(at, label.zpl, Number(totalCount)))] : [png];
        for (const language of PRINTER_LANGUAGES) {
          const res = await post(app, path, label.zpl, { Accept: OUTPUT_TYPES[language].mediaType });
          const job = expectJobAnswer(res, language, label.id);
          expect(res.headers['x-total-count'], label.id).to.equal(totalCount);
          expectJobPrints(language, job, printedLabel({ dpmm, ...label }, png), pngs, `${label.id} ${path}`);
        }
      }
    });
  }

  /** The bitonal PNGs of labels 1 .. count-1 (a carrier document of more than one label). */
  async function morePngs(at: { dpmm: Dpmm; size: string }, zpl: Buffer, count: number): Promise<DecodedPng[]> {
    const pngs: DecodedPng[] = [];
    for (let index = 1; index < count; index++) pngs.push((await bitonalPng(app, { ...at, index }, zpl)).png);
    return pngs;
  }

  it('all labels: one print per label in order, ^PQ copies included, turned by X-Rotation, X-Total-Count 5', async () => {
    for (const rotation of ['0', '90']) {
      const pngs: DecodedPng[] = [];
      for (let index = 0; index < 5; index++) {
        pngs.push((await bitonalPng(app, { dpmm: 8, size: '4x6', index }, DOCUMENT, { 'X-Rotation': rotation })).png);
      }
      for (const language of PRINTER_LANGUAGES) {
        const res = await post(app, labelsPath('8dpmm', '4x6'), DOCUMENT, {
          Accept: OUTPUT_TYPES[language].mediaType,
          'X-Rotation': rotation,
        });
        const job = expectJobAnswer(res, language, `all labels ${rotation}°`);
        expect(res.headers['x-total-count']).to.equal('5');
        const label = printedLabel({ dpmm: 8, widthIn: 4, heightIn: 6, rotation: Number(rotation) }, pngs[0]!);
        expectJobPrints(language, job, label, pngs, `all labels ${rotation}°`);
      }
    }
  });

  it('one label: the index asked for, turned 90 and 270, with X-Warnings when the linter is on', async () => {
    const zpl = `${DOCUMENT.toString('latin1')}^XA^FO20,20^GB99999,10,3^FS^FO50,80^A0N,40^FDlinted^FS^XZ`;
    for (const rotation of ['90', '270']) {
      const headers = { 'X-Rotation': rotation, 'X-Linter': 'On' };
      const { png, warnings } = await bitonalPng(app, { dpmm: 12, size: '3x2', index: 5 }, zpl, headers);
      expect(warnings).to.match(/Value 99999 is greater than maximum value 32000/);
      const label = printedLabel({ dpmm: 12, widthIn: 3, heightIn: 2, rotation: Number(rotation) }, png);
      expect([label.width, label.height]).to.deep.equal([608, 912]);
      for (const language of PRINTER_LANGUAGES) {
        const accept = { Accept: OUTPUT_TYPES[language].mediaType, ...headers };
        const res = await post(app, labelsPath('12dpmm', '3x2', '5'), zpl, accept);
        const job = expectJobAnswer(res, language, `index 5, ${rotation}°`);
        expect([res.headers['x-total-count'], res.headers['x-warnings']]).to.deep.equal(['6', warnings]);
        expectJobPrints(language, job, label, [png], `index 5, ${rotation}°`);
      }
    }
  });

  it('GET with the ZPL in the path answers the job POST does', async () => {
    const zpl = '^XA^FO20,20^GB200,100,8^FS^FO30,140^A0N,30^FDGET^FS^XZ';
    for (const language of PRINTER_LANGUAGES) {
      const headers = { Accept: OUTPUT_TYPES[language].mediaType, 'X-Rotation': '180' };
      const posted = expectJobAnswer(await post(app, labelsPath('8dpmm', '2x1', '0'), zpl, headers), language, 'POST');
      let get = request(app).get(`${labelsPath('8dpmm', '2x1', '0')}/${encodeURIComponent(zpl)}`);
      for (const [k, v] of Object.entries({ 'X-API-Key': KEYS.png, ...headers })) get = get.set(k, v);
      const fromGet = await get.buffer(true).parse(binaryBody);
      expect(Buffer.compare(expectJobAnswer(fromGet, language, 'GET'), posted), `GET ${language}`).to.equal(0);
    }
  });

  it('X-Quality is not read (a job is 1-bit), a bad X-Rotation is the 400, past the last label the 404', async () => {
    for (const language of PRINTER_LANGUAGES) {
      const accept = OUTPUT_TYPES[language].mediaType;
      const plain = await post(app, labelsPath('8dpmm', '2x1', '0'), DOCUMENT, { Accept: accept });
      const grey = await post(app, labelsPath('8dpmm', '2x1', '0'), DOCUMENT, { Accept: accept, 'X-Quality': 'x' });
      expect(Buffer.compare(plain.body as Buffer, grey.body as Buffer), language).to.equal(0);
      const bad = await post(app, labelsPath('8dpmm', '2x1', '0'), DOCUMENT, { Accept: accept, 'X-Rotation': '45' });
      expect([bad.status, (bad.body as Buffer).toString()]).to.deep.equal([
        400,
        'ERROR: Label rotation must be 0, 90, 180 or 270 degrees',
      ]);
      const past = await post(app, labelsPath('8dpmm', '2x1', '5'), DOCUMENT, { Accept: accept });
      expect([past.status, (past.body as Buffer).toString()]).to.deep.equal([
        404,
        'ERROR: Requested 6th label but ZPL only generated 5 labels',
      ]);
      const none = await post(app, labelsPath('8dpmm', '2x1'), 'no label', { Accept: accept });
      expect([none.status, (none.body as Buffer).toString()]).to.deep.equal([404, 'ERROR: no labels generated']);
    }
  });

  it('IPL refuses a label past its 8192-dot addresses with a 400 saying so', async () => {
    const res = await post(app, labelsPath('24dpmm', '1x14', '0'), '^XA^FO10,10^GB100,100,10^FS^XZ', {
      Accept: 'application/ipl',
    });
    expect(res.status).to.equal(400);
    expect((res.body as Buffer).toString()).to.match(/^ERROR: IPL addresses at most 8192 dots a side/);
  });

  it('count as PNG for key scopes: a png key is served, a pdf key refused', async () => {
    for (const language of PRINTER_LANGUAGES) {
      const accept = { Accept: OUTPUT_TYPES[language].mediaType };
      const png = await post(app, labelsPath('8dpmm', '2x1'), DOCUMENT, accept, KEYS.png);
      expectJobAnswer(png, language, 'png key');
      const pdf = await post(app, labelsPath('8dpmm', '2x1'), DOCUMENT, accept, KEYS.pdf);
      expect(pdf.status, language).to.equal(403);
      expect(JSON.parse((pdf.body as Buffer).toString())).to.include({
        error: 'scope_denied',
        required: 'png',
        actual: 'pdf',
      });
    }
  });

  it('pages per day counts the labels printed: every label of an all-labels job, one of a single-label job', async () => {
    const { app: limited } = await buildApp({ outputs: ['epl', 'sbpl'] }, [
      { key: 'k_day4', scope: 'all', pagesPerDay: 4 },
    ]);
    const three = '^XA^FO10,10^GB50,50,5^FS^PQ3^XZ';
    const one = await post(limited, labelsPath('8dpmm', '2x1', '2'), three, { Accept: 'application/epl' }, 'k_day4');
    expect([one.status, one.headers['x-total-count']]).to.deep.equal([200, '3']);
    const all = await post(limited, labelsPath('8dpmm', '2x1'), three, { Accept: 'application/sbpl' }, 'k_day4');
    expect(all.status).to.equal(200);
    const over = await post(limited, labelsPath('8dpmm', '2x1', '0'), three, { Accept: 'application/epl' }, 'k_day4');
    expect(over.status).to.equal(429);
    expect(JSON.parse((over.body as Buffer).toString())).to.include({ limit_type: 'pages_per_day' });
  });

  it('each language is a switch of its own: one on, the others stay a 406 that lists what is served', async () => {
    const { app: eplOnly } = await buildApp({ outputs: ['epl'] });
    expectJobAnswer(
      await post(eplOnly, labelsPath('8dpmm', '2x1'), DOCUMENT, { Accept: 'application/epl' }),
      'epl',
      '',
    );
    for (const language of PRINTER_LANGUAGES.filter((l) => l !== 'epl')) {
      const res = await post(eplOnly, labelsPath('8dpmm', '2x1', '0'), DOCUMENT, {
        Accept: OUTPUT_TYPES[language].mediaType,
      });
      expect([res.status, (res.body as Buffer).toString()], language).to.deep.equal([
        406,
        'ERROR: HTTP 406 Not Acceptable\nimage/png, application/pdf, application/epl',
      ]);
    }
    // The first type we produce decides: an EPL asked after PDF is a PDF.
    const pdf = await post(eplOnly, labelsPath('8dpmm', '2x1'), DOCUMENT, {
      Accept: 'application/pdf, application/epl',
    });
    expect(pdf.headers['content-type']).to.equal('application/pdf');
  });

  it('EXTRA_OUTPUTS names them for the server, any case, any alone; an unknown name stops it', () => {
    expect(readClientOptions({ EXTRA_OUTPUTS: ' PCL6, epl ,ipl' }).outputs).to.deep.equal(['ipl', 'epl', 'pcl6']);
    expect(readClientOptions({ EXTRA_OUTPUTS: EXTRA_OUTPUTS.join(',') }).outputs).to.deep.equal([
      'json',
      'zpl',
      ...PRINTER_LANGUAGES,
    ]);
    expect(() => readClientOptions({ EXTRA_OUTPUTS: 'epl,pcl7' })).to.throw(
      'EXTRA_OUTPUTS must list json, zpl, ipl, epl, dpl, sbpl, pcl5, pcl6, not epl,pcl7',
    );
  });

  it('the OpenAPI document lists each type switched on, and no other', () => {
    const content = (outputs: readonly (typeof EXTRA_OUTPUTS)[number][]) =>
      Object.keys(
        (buildOpenApiDocument({ version: 't', api: { outputs } }) as any).paths['/printers/{dpmm}/labels/{dimensions}']
          .post.responses['200'].content,
      );
    expect(content(['pcl5', 'dpl'])).to.deep.equal([
      'application/pdf',
      'image/png',
      'application/dpl',
      'application/pcl5',
    ]);
    expect(content(EXTRA_OUTPUTS)).to.deep.equal([
      'application/pdf',
      'image/png',
      ...EXTRA_OUTPUTS.map((o) => OUTPUT_TYPES[o].mediaType),
    ]);
  });

  it('proxy mode forwards the type asked as the Accept, with X-Rotation; fallback forwards what it cannot draw so', async () => {
    const upstream = await startFakeUpstream((received, res) => {
      res.setHeader('Content-Type', String(received.headers.accept));
      res.setHeader('X-Total-Count', '2');
      res.end('JOB');
    });
    try {
      const { app: proxy } = await buildApp({ outputs: ['pcl5'], mode: 'proxy', upstream: { url: upstream.url } });
      const proxied = await post(proxy, labelsPath('8dpmm', '4x6'), DOCUMENT, {
        Accept: 'application/pcl5;q=0.9, application/pdf;q=0.1',
        'X-Rotation': '90',
      });
      expect([proxied.status, proxied.headers['content-type']]).to.deep.equal([200, 'application/pcl5']);
      const { app: fallback } = await buildApp({ outputs: ['dpl'], mode: 'fallback', upstream: { url: upstream.url } });
      const unsupported = '^XA^FO10,10^GB50,50,50^FS^QQ^XZ';
      const forwarded = await post(fallback, labelsPath('8dpmm', '4x6', '0'), unsupported, {
        Accept: 'image/*;q=0, application/dpl',
      });
      expect([forwarded.status, forwarded.headers['x-renderer']]).to.deep.equal([200, 'upstream']);
      const drawn = await post(fallback, labelsPath('8dpmm', '4x6', '0'), '^XA^FO10,10^GB50,50,5^FS^XZ', {
        Accept: 'application/dpl',
      });
      expectJobAnswer(drawn, 'dpl', 'fallback, drawn here');
      const [toProxy, toFallback] = await upstream.requests(2);
      expect([toProxy!.headers.accept, toProxy!.headers['x-rotation'], toProxy!.url]).to.deep.equal([
        'application/pcl5',
        '90',
        '/printers/8dpmm/labels/4x6',
      ]);
      expect([toFallback!.headers.accept, toFallback!.url]).to.deep.equal([
        'application/dpl',
        '/printers/8dpmm/labels/4x6/0',
      ]);
      expect(upstream.received).to.have.length(2);
    } finally {
      await upstream.close();
    }
  });

  it('shadow mode offers PNG answers for comparison and leaves print jobs alone', async () => {
    const upstream = await startFakeUpstream();
    try {
      const settled: ShadowOutcome[] = [];
      let wake = (): void => {};
      let offered = 0;
      const { app: shadow } = await buildApp({
        outputs: ['epl'],
        mode: 'shadow',
        upstream: { url: upstream.url },
        shadow: {
          sampleRate: 1,
          // Drawn once for each answer offered, before the answer's handler returns.
          random: () => {
            offered++;
            return 0;
          },
          onSettled: (outcome) => {
            settled.push(outcome);
            wake();
          },
        },
      });
      for (const accept of ['image/png', 'application/epl', 'image/png']) {
        const res = await post(shadow, labelsPath('8dpmm', '2x1', '0'), DOCUMENT, { Accept: accept });
        expect(res.status).to.equal(200);
      }
      expect(offered).to.equal(2);
      await new Promise<void>((resolve) => {
        wake = () => settled.length >= 2 && resolve();
        wake();
      });
      expect(upstream.received.map((r) => r.headers.accept)).to.deep.equal(['image/png', 'image/png']);
    } finally {
      await upstream.close();
    }
  });
});
