// The OpenAPI document: built from the tables the router validates with, served by the ops router; every
// status it documents is produced by a real request, and every answer here matches it.

import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import {
  CHOICE_HEADERS,
  ENDPOINTS,
  PAGE_LAYOUT_HEADER,
  PATH_PARAMETERS,
  REQUEST_HEADERS,
} from '../middleware/api-table/index.js';
import { RENDER_ERROR_STATUS } from '../middleware/http/http-errors.js';
import { createOpsRouter, LEGACY_MOUNT_PATH } from '../middleware/index.js';
import { createMemoryKeyStore } from '../middleware/stores/memory/key-store.js';
import { RenderError, type RenderErrorCode } from '../renderer/index.js';
import { BASE, buildApp, KEYS, labelsPath, recordingRender } from './helpers/http-app.js';
import { Jimp } from 'jimp';
import { squareFont } from './helpers/hostile-fonts.js';
import { answers, checkerFor, OpenApiChecker } from './helpers/openapi-check.js';

const ZPL = '^XA^FO10,10^GB50,50,50^FS^XZ';
const TWO_LABELS = `${ZPL}${ZPL}`;

/** Sends a request through supertest and checks the answer against the document; returns the answer. */
async function checked(
  checker: OpenApiChecker,
  test: request.Test,
  method: string,
  path: string,
): Promise<request.Response> {
  const res = await test.buffer(true).parse((stream, done) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => done(null, Buffer.concat(chunks)));
  });
  const text = (res.body as Buffer).toString('utf8');
  const problems = checker.problems(method, path.slice(BASE.length), {
    status: res.status,
    headers: res.headers,
    text,
  });
  expect(problems, `${method} ${path} -> ${res.status}`).to.deep.equal([]);
  return res;
}

describe('OpenAPI document', () => {
  // Every answer of a helper-built app is checked as it is sent; test/setup/openapi-answers.ts fails the run on one
  // that does not match. This file's apps answered before this case (mocha runs cases in order).
  after(() => {
    expect(answers.checked, 'answers checked against the document').to.be.above(0);
  });

  const checker = new OpenApiChecker();

  it('is served by the ops router as OpenAPI 3.1, one path per endpoint of the table', async () => {
    const app = express().use(
      createOpsRouter({ keyStore: createMemoryKeyStore(), version: '9.9.9', legacyPaths: ['/a', '/b'] }),
    );
    const res = await request(app).get('/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^application\/json/);
    const doc = res.body as {
      openapi: string;
      info: { version: string };
      servers: unknown;
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    expect(doc.openapi).to.equal('3.1.0');
    expect(doc.info.version).to.equal('9.9.9');
    expect(doc.servers).to.deep.equal([{ url: '/a' }, { url: '/b' }]);
    for (const endpoint of ENDPOINTS)
      expect(doc.paths[endpoint.template]![endpoint.method]!.operationId).to.equal(endpoint.id);
  });

  it('documents every request header, the key as a security scheme, and both body forms', () => {
    const doc = checker.doc;
    const headers = Object.values(doc.components.parameters as Record<string, { in: string; name: string }>)
      .filter((p) => p.in === 'header')
      .map((p) => p.name);
    // Headers of the extra outputs (off here) are documented only when they are on (test/outputs-http.test.ts).
    expect(headers).to.deep.equal(
      REQUEST_HEADERS.filter((h: { name: string; output?: string }) => h.output === undefined).map((h) => h.name),
    );
    expect(doc.components.securitySchemes.apiKey).to.include({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    const body = doc.paths['/printers/{dpmm}/labels/{dimensions}/{index}'].post.requestBody.content;
    expect(body).to.have.keys(
      'application/x-www-form-urlencoded',
      'text/plain',
      'application/octet-stream',
      'multipart/form-data',
    );
    expect(body['multipart/form-data'].schema.required).to.deep.equal(['file']);
    expect(doc.paths['/printers/{dpmm}/labels/{dimensions}/{index}/{zpl}'].get).to.not.have.property('requestBody');
  });

  it('states the same forms the router accepts (patterns match what validation lets through)', () => {
    const pattern = (name: string): RegExp =>
      new RegExp(checker.doc.components.parameters[name].schema.pattern as string);
    expect(pattern(PATH_PARAMETERS.dpmm.name).test('8DPMM')).to.equal(true);
    expect(pattern(PATH_PARAMETERS.dpmm.name).test('7dpmm')).to.equal(false);
    expect(pattern(PATH_PARAMETERS.dimensions.name).test('4X6')).to.equal(true);
    expect(pattern(`header.${CHOICE_HEADERS.labelBorder.name}`).test('SOLID')).to.equal(true);
    expect(pattern(`header.${CHOICE_HEADERS.labelBorder.name}`).test('dotted')).to.equal(false);
    expect(pattern(`header.${PAGE_LAYOUT_HEADER.name}`).test('0x2')).to.equal(false);
    expect(pattern(`header.${PAGE_LAYOUT_HEADER.name}`).test('02x3')).to.equal(true);
  });

  describe('every documented status and content type comes from a real request, and every answer matches', () => {
    after(() => {
      const missing = [...checker.documented()].filter((pair) => !checker.seen.has(pair));
      expect(missing, 'documented answers no request produced').to.deep.equal([]);
    });

    it('200: PNG and PDF of one label (path and body), every label as PDF, multipart', async () => {
      const { app } = await buildApp({ maxLabels: 5 });
      const one = labelsPath('8dpmm', '4x6', '0');
      await checked(
        checker,
        request(app).post(one).set('X-API-Key', KEYS.all).set('X-Linter', 'On').type('form').send(ZPL),
        'POST',
        one,
      );
      await checked(
        checker,
        request(app).post(one).set('X-API-Key', KEYS.all).set('Accept', 'application/pdf').type('form').send(ZPL),
        'POST',
        one,
      );
      const get = `${one}/${encodeURIComponent(ZPL)}`;
      await checked(checker, request(app).get(get).set('X-API-Key', KEYS.all), 'GET', get);
      const query = `${one}/?${encodeURIComponent(ZPL)}`;
      const fromQuery = await checked(checker, request(app).get(query).set('X-API-Key', KEYS.all), 'GET', query);
      expect([fromQuery.status, fromQuery.headers['content-type']]).to.deep.equal([200, 'image/png']);
      expect(
        (await checked(checker, request(app).get(`${one}/`).set('X-API-Key', KEYS.all), 'GET', `${one}/`)).status,
      ).to.equal(404);
      const all = labelsPath('8dpmm', '4x6');
      await checked(
        checker,
        request(app)
          .post(all)
          .set('X-API-Key', KEYS.all)
          .set('Accept', 'application/pdf')
          .type('form')
          .send(TWO_LABELS),
        'POST',
        all,
      );
      await checked(
        checker,
        request(app)
          .post(`${all}/`)
          .set('X-API-Key', KEYS.all)
          .set('Accept', 'application/pdf')
          .attach('file', Buffer.from(TWO_LABELS), 'labels.zpl'),
        'POST',
        `${all}/`,
      );
    });

    it('4xx: bad values, keys, formats, sizes and limits', async () => {
      const { app } = await buildApp({ maxBodyBytes: 200 }, [
        { key: KEYS.all, scope: 'all' },
        { key: KEYS.expired, scope: 'all', expiresAt: '2020-01-01T00:00:00Z' },
        { key: KEYS.png, scope: 'png' },
        { key: 'k_one_page', scope: 'all', pagesPerDay: 1 },
      ]);
      const one = labelsPath('8dpmm', '4x6', '0');
      const post = (path: string, key?: string) => {
        const req = request(app).post(path).type('form');
        return key ? req.set('X-API-Key', key) : req;
      };
      const cases: Array<[number, request.Test, string]> = [
        [400, post(labelsPath('7dpmm', '4x6', '0'), KEYS.all).send(ZPL), labelsPath('7dpmm', '4x6', '0')],
        [400, post(one, KEYS.all).set('X-Rotation', '45').send(ZPL), one],
        [400, post(one, KEYS.all).set('Accept', 'application/pdf').set('X-Label-Border', 'dotted').send(ZPL), one],
        [401, post(one).send(ZPL), one],
        [401, post(one, 'k_unknown').send(ZPL), one],
        [401, post(one, KEYS.expired).send(ZPL), one],
        [403, post(one, KEYS.png).set('Accept', 'application/pdf').send(ZPL), one],
        [404, post(labelsPath('8dpmm', '4x6', '3'), KEYS.all).send(ZPL), labelsPath('8dpmm', '4x6', '3')],
        [404, post(labelsPath('8dpmm', '4x6'), KEYS.all).send(ZPL), labelsPath('8dpmm', '4x6')],
        [406, post(one, KEYS.all).set('Accept', 'application/json').send(ZPL), one],
        [413, post(one, KEYS.all).send(ZPL.repeat(20)), one],
      ];
      for (const [status, test, path] of cases)
        expect((await checked(checker, test, 'POST', path)).status).to.equal(status);
      expect((await checked(checker, post(one, 'k_one_page').send(ZPL), 'POST', one)).status).to.equal(200);
      expect((await checked(checker, post(one, 'k_one_page').send(ZPL), 'POST', one)).status).to.equal(429);
    });

    it('each renderer error code answers the status of its table with the plain-text shape', async () => {
      const one = labelsPath('8dpmm', '4x6', '0');
      for (const [code, status] of Object.entries(RENDER_ERROR_STATUS)) {
        const render = recordingRender({}, () => new RenderError(code as RenderErrorCode, `failed with ${code}`));
        const { app } = await buildApp({ render });
        const res = await checked(
          checker,
          request(app).post(one).set('X-API-Key', KEYS.all).type('form').send(ZPL),
          'POST',
          one,
        );
        expect(res.status, code).to.equal(status);
      }
    });

    it('500 for an unexpected failure, 502 when the legacy service is down, 503 while the key store is not ready', async () => {
      const one = labelsPath('8dpmm', '4x6', '0');
      const { app: failing } = await buildApp({ render: recordingRender({}, () => new Error('boom')) });
      expect(
        (
          await checked(
            checker,
            request(failing).post(one).set('X-API-Key', KEYS.all).type('form').send(ZPL),
            'POST',
            one,
          )
        ).status,
      ).to.equal(500);
      const { app: proxy } = await buildApp({
        mode: 'proxy',
        upstream: { url: 'http://127.0.0.1:9/compatibility/legacy/v1', timeoutMs: 2000 },
      });
      expect(
        (
          await checked(
            checker,
            request(proxy).post(one).set('X-API-Key', KEYS.all).type('form').send(ZPL),
            'POST',
            one,
          )
        ).status,
      ).to.equal(502);
      const notReady = Object.assign(createMemoryKeyStore(), { isReady: () => false });
      const { app: down } = await buildApp({ keyStore: notReady });
      expect(
        (await checked(checker, request(down).post(one).set('X-API-Key', KEYS.all).type('form').send(ZPL), 'POST', one))
          .status,
      ).to.equal(503);
    });
  });

  it('the checker catches an answer that does not match (it can fail)', () => {
    const one = '/printers/8dpmm/labels/4x6/0';
    expect(checker.problems('POST', one, { status: 418, headers: {}, text: '' })).to.have.length(1);
    expect(
      checker.problems('POST', one, {
        status: 401,
        headers: { 'content-type': 'application/json', 'x-request-id': 'r1' },
        text: '{"error":"nope","message":"x"}',
      }),
    ).to.have.length(1);
    expect(
      checker.problems('POST', one, {
        status: 400,
        headers: { 'content-type': 'text/plain', 'x-request-id': 'r1' },
        text: 'Bad',
      }),
    ).to.have.length(1);
    expect(
      checker
        .problems('POST', one, { status: 200, headers: { 'content-type': 'image/png', 'x-request-id': 'r1' } })
        .join(),
    ).to.contain('X-Total-Count');
  });

  it('mounts under the legacy prefix only: the document lists no ops route', () => {
    expect(Object.keys(checker.doc.paths as object).every((p) => p.startsWith('/printers/'))).to.equal(true);
    expect(LEGACY_MOUNT_PATH).to.equal(BASE);
  });

  describe('with the client options on, the document describes the API they make (and every answer matches it)', () => {
    const graphics = checkerFor({ graphicsEndpoint: true });

    it('lists POST /graphics, POST /fonts, ?key= and the optional key only when they are on', () => {
      expect(checker.doc.paths).to.not.have.property('/graphics');
      expect(checker.doc.paths).to.not.have.property('/fonts');
      expect(graphics.doc.paths).to.not.have.property('/fonts');
      const fonts = checkerFor({ fontsEndpoint: true }).doc;
      expect(fonts.paths['/fonts'].post.operationId).to.equal('convertFontToZpl');
      expect(
        Object.keys(fonts.paths['/fonts'].post.requestBody.content['multipart/form-data'].schema.properties),
      ).to.deep.equal(['file', 'path', 'name', 'chars', 'unicodes']);
      expect(checker.doc.security).to.deep.equal([{ apiKey: [] }]);
      expect(graphics.doc.paths['/graphics'].post.operationId).to.equal('convertImageToGraphicField');
      const all = checkerFor({ graphicsEndpoint: true, allowQueryKey: true, anonymousKey: true }).doc;
      expect(all.security).to.deep.equal([{ apiKey: [] }, { queryKey: [] }, {}]);
      expect(all.components.securitySchemes.queryKey).to.include({ type: 'apiKey', in: 'query', name: 'key' });
      expect(checker.doc.paths['/printers/{dpmm}/labels/{dimensions}/{index}'].get.operationId).to.equal(
        'renderLabelFromQuery',
      );
    });

    it('POST /graphics: every documented status and content type comes from a real request', async () => {
      const { app } = await buildApp({ graphicsEndpoint: true, maxBodyBytes: 4096 }, [
        { key: KEYS.all, scope: 'all' },
        { key: KEYS.pdf, scope: 'pdf' },
      ]);
      const path = `${BASE}/graphics`;
      const image = await new Jimp({ width: 16, height: 2, color: 0x000000ff }).getBuffer('image/png');
      const send = (test: request.Test) => checked(graphics, test, 'POST', path);
      const post = () => request(app).post(path);
      const seen: Array<[number, string]> = [];
      const note = (res: request.Response) => {
        seen.push([res.status, String(res.headers['content-type']).split(';')[0]!]);
      };
      note(await send(post().set('X-API-Key', KEYS.all).attach('file', image, 'a.png')));
      note(
        await send(post().set('X-API-Key', KEYS.all).set('Accept', 'application/json').attach('file', image, 'a.png')),
      );
      note(await send(post().set('X-API-Key', KEYS.all).attach('file', Buffer.from('no image'), 'a.txt')));
      note(await send(post().attach('file', image, 'a.png')));
      note(await send(post().set('X-API-Key', KEYS.pdf).attach('file', image, 'a.png')));
      note(await send(post().set('X-API-Key', KEYS.all).attach('file', Buffer.alloc(8192, 1), 'big.png')));
      expect(seen).to.deep.equal([
        [200, 'text/plain'],
        [200, 'application/json'],
        [400, 'text/plain'],
        [401, 'application/json'],
        [403, 'application/json'],
        [413, 'text/plain'],
      ]);
    });

    it('POST /fonts: every documented status and content type comes from a real request', async () => {
      const fonts = checkerFor({ fontsEndpoint: true });
      const { app } = await buildApp({ fontsEndpoint: true, maxBodyBytes: 4096 }, [
        { key: KEYS.all, scope: 'all' },
        { key: KEYS.pdf, scope: 'pdf' },
      ]);
      const path = `${BASE}/fonts`;
      const font = squareFont();
      const send = (test: request.Test) => checked(fonts, test, 'POST', path);
      const post = () => request(app).post(path);
      const seen: Array<[number, string]> = [];
      const note = (res: request.Response) => {
        seen.push([res.status, String(res.headers['content-type']).split(';')[0]!]);
      };
      note(await send(post().set('X-API-Key', KEYS.all).attach('file', font, 'a.ttf').field('name', 'Z')));
      note(await send(post().set('X-API-Key', KEYS.all).attach('file', Buffer.from('no font'), 'a.ttf')));
      note(await send(post().attach('file', font, 'a.ttf')));
      note(await send(post().set('X-API-Key', KEYS.pdf).attach('file', font, 'a.ttf')));
      note(await send(post().set('X-API-Key', KEYS.all).attach('file', Buffer.alloc(8192, 1), 'big.ttf')));
      expect(seen).to.deep.equal([
        [200, 'text/plain'],
        [400, 'text/plain'],
        [401, 'application/json'],
        [403, 'application/json'],
        [413, 'text/plain'],
      ]);
    });
  });
});
