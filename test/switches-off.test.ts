// With every switch off (no `outputs`, pageComposition `validate`), the answers are the ones recorded before the
// printer languages, /graphics in the type asked and PAGE_COMPOSITION existed: status, the headers a client reads and
// the body's SHA-256, request by request. The file was written by the commit that added this test, on a tree without
// them (`RECORD_SWITCHES_OFF=1` writes it; run so only from such a tree).

import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import request from 'supertest';
import { BASE, binaryBody, buildApp, KEYS, labelsPath } from './helpers/http-app.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/upstream-fake.js';
import { greyPng } from './helpers/upstream-png.js';

const RECORDED = join(process.cwd(), 'test', 'recorded', 'switches-off.json');

/** What a client reads of an answer. */
interface Recorded {
  status: number;
  headers: Record<string, string>;
  bodySha256: string;
  /** Short text answers in full, so a difference is readable. */
  text?: string;
}

const HEADERS = ['content-type', 'content-length', 'content-disposition', 'x-total-count', 'x-warnings', 'x-renderer'];

const LANGUAGE_TYPES = ['ipl', 'epl', 'dpl', 'sbpl', 'pcl5', 'pcl6'].map((name) => `application/${name}`);
const ACCEPTS = [
  undefined,
  'image/png',
  'application/pdf',
  'application/json',
  'application/zpl',
  ...LANGUAGE_TYPES,
  'application/epl, image/png',
  'application/pcl6, application/pdf',
  'application/sbpl;q=0, application/pdf',
  'text/html',
];

const ZPL = '^XA^FO40,40^GB200,100,8^FS^FO50,200^A0N,40,40^FDOff^FS^FO1,1^GB99999,2,2^FS^PQ2^XZ';
/** A 20x12 image: a black box with a hole. */
const IMAGE = greyPng(20, 12, (x, y) => x >= 2 && x < 18 && y >= 2 && y < 10 && !(x > 6 && x < 12 && y > 4 && y < 8));

type Case = { name: string; send: (apps: Apps) => request.Test };
interface Apps {
  plain: Parameters<typeof request>[0];
  graphics: Parameters<typeof request>[0];
  proxy: Parameters<typeof request>[0];
}

function withHeaders(test: request.Test, headers: Record<string, string | undefined>): request.Test {
  let t = test;
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) t = t.set(name, value);
  return t.buffer(true).parse(binaryBody);
}

const CASES: Case[] = [
  ...ACCEPTS.flatMap((accept): Case[] => [
    {
      name: `POST one label, Accept ${accept}`,
      send: (apps) =>
        withHeaders(request(apps.plain).post(labelsPath('8dpmm', '4x6', '1')), {
          'X-API-Key': KEYS.all,
          Accept: accept,
          'X-Linter': 'On',
          'X-Rotation': '90',
        }).send(ZPL),
    },
    {
      name: `POST all labels, Accept ${accept}`,
      send: (apps) =>
        withHeaders(request(apps.plain).post(labelsPath('8dpmm', '4x6')), {
          'X-API-Key': KEYS.all,
          Accept: accept,
        }).send(ZPL),
    },
    {
      name: `GET one label, png key, Accept ${accept}`,
      send: (apps) =>
        withHeaders(request(apps.plain).get(`${labelsPath('12dpmm', '2x1', '0')}/${encodeURIComponent(ZPL)}`), {
          'X-API-Key': KEYS.png,
          Accept: accept,
        }),
    },
    {
      name: `POST one label, pdf key, Accept ${accept}`,
      send: (apps) =>
        withHeaders(request(apps.plain).post(labelsPath('8dpmm', '4x6', '0')), {
          'X-API-Key': KEYS.pdf,
          Accept: accept,
        }).send(ZPL),
    },
    {
      name: `POST /graphics, Accept ${accept}`,
      send: (apps) =>
        withHeaders(request(apps.graphics).post(`${BASE}/graphics`), { 'X-API-Key': KEYS.all, Accept: accept }).attach(
          'file',
          IMAGE,
          'box.png',
        ),
    },
    {
      name: `proxy mode, all labels, Accept ${accept}`,
      send: (apps) =>
        withHeaders(request(apps.proxy).post(labelsPath('8dpmm', '4x6')), {
          'X-API-Key': KEYS.all,
          Accept: accept,
        }).send(ZPL),
    },
  ]),
  ...['text/plain, application/json', 'application/json;q=0', 'application/json-seq', 'application/zpl, */*'].map(
    (accept): Case => ({
      name: `POST /graphics, Accept ${accept}`,
      send: (apps) =>
        withHeaders(request(apps.graphics).post(`${BASE}/graphics?threshold=200`), {
          'X-API-Key': KEYS.all,
          Accept: accept,
        }).attach('file', IMAGE, 'box.png'),
    }),
  ),
  {
    name: 'PDF with page headers (validated, not composed)',
    send: (apps) =>
      withHeaders(request(apps.plain).post(labelsPath('8dpmm', '4x6')), {
        'X-API-Key': KEYS.all,
        Accept: 'application/pdf',
        'X-Page-Size': 'Letter',
        'X-Page-Layout': '2x1',
        'X-Page-Align': 'center',
        'X-Label-Border': 'solid',
      }).send(ZPL),
  },
  {
    name: 'PDF with a bad page layout',
    send: (apps) =>
      withHeaders(request(apps.plain).post(labelsPath('8dpmm', '4x6')), {
        'X-API-Key': KEYS.all,
        Accept: 'application/pdf',
        'X-Page-Size': 'A6',
        'X-Page-Layout': '1x9',
      }).send(ZPL),
  },
  {
    name: 'X-Target-Dpmm and X-Formatter on an EPL request',
    send: (apps) =>
      withHeaders(request(apps.plain).post(labelsPath('8dpmm', '4x6', '0')), {
        'X-API-Key': KEYS.all,
        Accept: 'application/epl',
        'X-Target-Dpmm': '7',
        'X-Formatter': 'On',
      }).send(ZPL),
  },
];

async function answer(test: request.Test): Promise<Recorded> {
  const res = await test;
  const body = res.body as Buffer;
  const textual = /^(text\/|application\/json)/.test(String(res.headers['content-type']));
  return {
    status: res.status,
    headers: Object.fromEntries(HEADERS.filter((h) => res.headers[h] !== undefined).map((h) => [h, res.headers[h]])),
    bodySha256: createHash('sha256').update(body).digest('hex'),
    ...(textual && body.length <= 400 && { text: body.toString('latin1') }),
  };
}

describe('every switch off: the answers recorded before the switches existed, byte for byte', function () {
  this.timeout(120_000);
  let upstream: FakeUpstream;
  let apps: Apps;

  before(async () => {
    // The legacy service echoes what it was sent, so the Accept forwarded is part of the answer.
    upstream = await startFakeUpstream((received, res) => {
      res
        .status(200)
        .set({ 'Content-Type': 'text/plain', 'X-Total-Count': '2' })
        .end(`accept=${received.headers.accept ?? ''} url=${received.url}`);
    });
    apps = {
      plain: (await buildApp()).app,
      graphics: (await buildApp({ graphicsEndpoint: true })).app,
      proxy: (await buildApp({ mode: 'proxy', upstream: { url: upstream.url } })).app,
    };
  });
  after(() => upstream.close());

  it(`${CASES.length} requests answer as recorded`, async () => {
    const seen: Record<string, Recorded> = {};
    for (const c of CASES) seen[c.name] = await answer(c.send(apps));
    if (process.env.RECORD_SWITCHES_OFF === '1') {
      writeFileSync(RECORDED, `${JSON.stringify(seen, null, 1)}\n`);
      return;
    }
    const recorded = JSON.parse(readFileSync(RECORDED, 'utf8')) as Record<string, Recorded>;
    expect(Object.keys(seen)).to.deep.equal(Object.keys(recorded));
    for (const name of Object.keys(recorded)) expect(seen[name], name).to.deep.equal(recorded[name]);
  });
});
