// The legacy service's other outputs over real HTTP, through the real renderer in the render pool: JSON label data and
// ZPL (as sent, laid out, converted), switched off by default (406 byte for byte), on with the router option
// `outputs` or EXTRA_OUTPUTS; scope, linter, pages per day, OpenAPI and proxy mode know them.

import { expect } from 'chai';
import request from 'supertest';
import { buildOpenApiDocument } from '../middleware/ops/openapi.js';
import { readClientOptions } from '../server/config.js';
import { interpret } from '../renderer/interpreter.js';
import { binaryBody, buildApp, KEYS, labelsPath } from './helpers/http-app.js';
import { startFakeUpstream } from './helpers/upstream-fake.js';

const OBSERVED_ZPL = '^XA\n^FT50,50^A0,50^FDField 1^FS\n^XZ';
const OBSERVED_JSON = '{"labels":[{"fields":[{"x":50,"y":50,"data":"Field 1"}]}]}';
/** Today's 406 (the spec's text), before any of this existed. */
const TODAYS_406 = 'ERROR: HTTP 406 Not Acceptable\nimage/png, application/pdf';

const post = (
  app: Parameters<typeof request>[0],
  path: string,
  zpl: string | Buffer,
  headers: Record<string, string>,
) => {
  let r = request(app).post(path).set('X-API-Key', KEYS.all);
  for (const [k, v] of Object.entries(headers)) r = r.set(k, v);
  return r
    .buffer(true)
    .parse(binaryBody)
    .send(typeof zpl === 'string' ? Buffer.from(zpl, 'utf8') : zpl);
};

describe('extra outputs over HTTP', function () {
  this.timeout(60_000);

  describe('switched off (the default)', () => {
    it("answers application/json and application/zpl with today's 406, byte for byte, on both paths", async () => {
      const { app } = await buildApp();
      for (const accept of ['application/json', 'application/zpl', 'application/json, application/zpl']) {
        for (const path of [labelsPath('8dpmm', '4x6', '0'), labelsPath('8dpmm', '4x6')]) {
          const res = await post(app, path, OBSERVED_ZPL, { Accept: accept });
          expect(res.status, `${accept} ${path}`).to.equal(406);
          expect((res.body as Buffer).toString('latin1')).to.equal(TODAYS_406);
          expect(res.headers['content-type']).to.match(/^text\/plain/);
        }
      }
      // The same answer as an Accept nobody ever served (what 406 always was).
      const other = await post(app, labelsPath('8dpmm', '4x6', '0'), OBSERVED_ZPL, { Accept: 'text/html' });
      const json = await post(app, labelsPath('8dpmm', '4x6', '0'), OBSERVED_ZPL, { Accept: 'application/json' });
      expect(json.body).to.deep.equal(other.body);
      expect(json.headers['content-length']).to.equal(other.headers['content-length']);
    });

    it('ignores X-Target-Dpmm on PNG (a bad value is no 400 there)', async () => {
      const { app } = await buildApp({ outputs: ['json', 'zpl'] });
      const res = await post(app, labelsPath('8dpmm', '4x6', '0'), OBSERVED_ZPL, { 'X-Target-Dpmm': '7' });
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('image/png');
    });
  });

  describe('JSON label data', () => {
    it("reproduces the legacy service's observed answer exactly, on the single-label and all-labels paths", async () => {
      const { app } = await buildApp({ outputs: ['json'] });
      for (const path of [labelsPath('8dpmm', '4x6', '0'), labelsPath('8dpmm', '4x6')]) {
        const res = await post(app, path, OBSERVED_ZPL, { Accept: 'application/json' });
        expect(res.status, path).to.equal(200);
        expect((res.body as Buffer).toString('utf8')).to.equal(OBSERVED_JSON);
        expect(res.headers['content-type']).to.equal('application/json');
        expect(res.headers['x-total-count']).to.equal('1');
      }
    });

    it("gives one entry per printed label with every field's data and origin (^FH, ^SN, ^FN, ^CI, barcodes, ^FB)", async () => {
      const { app } = await buildApp({ outputs: ['json'] });
      const zpl = [
        '^XA^LH10,20^FO5,5^A0N,30^FH^FD_41B_43^FS^FO100,40^BY2^BCN,60^FD12345^FS^FO0,200^GB100,10,10^FS',
        '^FO20,300^FB400,3,0,C^FDone two three four five six^FS^FO30,400^SN007,2,Y^FS^PQ2^XZ',
        '^XA^DFR:T.ZPL^FS^FO40,40^A0N,20^FN1^FS^FO60,60^BQN,2,4^FN2^FS^XZ',
        '^XA^XFR:T.ZPL^FS^FN1^FDfilled^FS^FN2^FDQA,qr data^FS^XZ',
        '^XA^CI28^FO1,2^FDZürich^FS^XZ',
      ].join('\n');
      const all = await post(app, labelsPath('8dpmm', '4x6'), zpl, { Accept: 'application/json' });
      expect(all.status).to.equal(200);
      expect(all.headers['x-total-count']).to.equal('4');
      const copy = (serial: string) => ({
        fields: [
          { x: 15, y: 25, data: 'ABC' },
          { x: 110, y: 60, data: '12345' },
          { x: 30, y: 320, data: 'one two three four five six' },
          { x: 40, y: 420, data: serial },
        ],
      });
      expect(JSON.parse((all.body as Buffer).toString('utf8'))).to.deep.equal({
        labels: [
          copy('007'),
          copy('009'),
          // ^LH is printer state: it stays for the labels after it.
          {
            fields: [
              { x: 50, y: 60, data: 'filled' },
              { x: 70, y: 80, data: 'QA,qr data' },
            ],
          },
          { fields: [{ x: 11, y: 22, data: 'Zürich' }] },
        ],
      });
      // The single-label path: the same shape, with the one label asked for.
      const second = await post(app, labelsPath('8dpmm', '4x6', '1'), zpl, { Accept: 'application/json' });
      expect(JSON.parse((second.body as Buffer).toString('utf8'))).to.deep.equal({ labels: [copy('009')] });
      const past = await post(app, labelsPath('8dpmm', '4x6', '4'), zpl, { Accept: 'application/json' });
      expect(past.status).to.equal(404);
      expect((past.body as Buffer).toString()).to.equal('ERROR: Requested 5th label but ZPL only generated 4 labels');
    });

    it("X-Linter lists the renderer's diagnostics on JSON too", async () => {
      const { app } = await buildApp({ outputs: ['json'] });
      const res = await post(app, labelsPath('8dpmm', '4x6', '0'), '^XA^FO50,50^GB99999,10,3^FS^FO1,1^FDa^FS^XZ', {
        Accept: 'application/json',
        'X-Linter': 'On',
      });
      expect(res.headers['x-warnings']).to.equal(
        '14|5|^GB|1|Value 99999 is greater than maximum value 32000; used 32000 instead',
      );
      expect((res.body as Buffer).toString()).to.equal('{"labels":[{"fields":[{"x":1,"y":1,"data":"a"}]}]}');
      const quiet = await post(app, labelsPath('8dpmm', '4x6', '0'), '^XA^FO50,50^GB99999,10,3^FS^FO1,1^FDa^FS^XZ', {
        Accept: 'application/json',
      });
      expect(quiet.headers['x-warnings']).to.equal(undefined);
    });

    it('counts the labels it answers against pages per day', async () => {
      const { app } = await buildApp({ outputs: ['json'] }, [{ key: 'k_day3', scope: 'all', pagesPerDay: 3 }]);
      const send = (zpl: string) =>
        request(app)
          .post(labelsPath('8dpmm', '4x6'))
          .set('X-API-Key', 'k_day3')
          .set('Accept', 'application/json')
          .send(zpl);
      expect((await send('^XA^FO1,1^FDa^FS^PQ3^XZ')).status).to.equal(200);
      const over = await send('^XA^FO1,1^FDa^FS^XZ');
      expect(over.status).to.equal(429);
      expect(over.body.limit_type).to.equal('pages_per_day');
    });
  });

  describe('ZPL', () => {
    const body = Buffer.from('^XA\r\n^FO50,50^A0,50^FD Field 1^FS\r\n  ^XZ\r\n', 'latin1');

    it('gives the document back byte for byte when nothing is asked', async () => {
      const { app } = await buildApp({ outputs: ['zpl'] });
      const res = await post(app, labelsPath('8dpmm', '4x6'), body, { Accept: 'application/zpl' });
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.equal('application/zpl');
      expect(res.headers['x-total-count']).to.equal('1');
      expect(res.body).to.deep.equal(body);
    });

    it('X-Formatter: On lays it out as the legacy service does (the recorded answer), and it re-parses the same', async () => {
      const { app } = await buildApp({ outputs: ['zpl'] });
      const res = await post(app, labelsPath('8dpmm', '4x6', '0'), body, {
        Accept: 'application/zpl',
        'X-Formatter': 'on',
      });
      const text = (res.body as Buffer).toString('latin1');
      expect(text).to.equal('^XA\n^FO50,50^A0,50^FD Field 1^FS\n^XZ');
      const fields = (zpl: Uint8Array) =>
        interpret(zpl, 8).labels.map((l) =>
          l.fields.map((f) => [f.kind, f.x, f.y, Buffer.from(f.data ?? []).toString('latin1'), f.font.height]),
        );
      expect(fields(res.body as Buffer)).to.deep.equal(fields(body));
    });

    it('X-Target-Dpmm converts; what is not faithful is in X-Warnings with or without the linter, the linter adds its own', async () => {
      const { app } = await buildApp({ outputs: ['zpl'] });
      const zpl = '^XA^BY3^FO10,10^BCN,50^FD123^FS^FO10,100^GB20,20,2^FSjunk^XZ';
      const res = await post(app, labelsPath('8dpmm', '4x6'), zpl, {
        Accept: 'application/zpl',
        'X-Target-Dpmm': '12dpmm',
      });
      expect(res.status).to.equal(200);
      expect((res.body as Buffer).toString('latin1')).to.equal(
        '^XA^CFA,9,5^BY3,3,15^BY4^FO15,15^BCN,75^FD123^FS^FO15,150^GB30,30,3^FSjunk^XZ',
      );
      expect(res.headers['x-warnings']).to.equal(
        '6|1|^BY|1|Module width 3 is 4.5 dots at 12 dpmm; written 4, the symbol is 11% smaller',
      );
      const linted = await post(app, labelsPath('8dpmm', '4x6'), zpl, {
        Accept: 'application/zpl',
        'X-Target-Dpmm': '12',
        'X-Linter': 'On',
      });
      expect(linted.headers['x-warnings']).to.equal(
        '53|4|^FS||Ignored unrecognized content|6|1|^BY|1|Module width 3 is 4.5 dots at 12 dpmm; written 4, the symbol is 11% smaller',
      );
    });

    it('X-Lossy-Fields: bitmap draws what has no whole-dot form as ^GF; a bad value is a 400; without X-Target-Dpmm it is not read', async () => {
      const { app } = await buildApp({ outputs: ['zpl'] });
      const zpl = '^XA^BY3^FO10,10^BCN,50^FD123^FS^XZ';
      const asked = (headers: Record<string, string>) =>
        post(app, labelsPath('8dpmm', '4x6'), zpl, { Accept: 'application/zpl', ...headers });
      const bitmap = await asked({ 'X-Target-Dpmm': '12', 'X-Lossy-Fields': 'BITMAP' });
      expect(bitmap.status).to.equal(200);
      const body = (bitmap.body as Buffer).toString('latin1');
      expect(body)
        .to.match(/^\^XA\^CFA,9,5\^BY3,3,15\^BY4\^LH0,0\^FO\d+,\d+,0\^GFA,/)
        .and.not.include('^BC');
      expect(bitmap.headers['x-warnings']).to.match(
        /^6\|1\|\^BY\|1\|Module width 3 is 4\.5 dots at 12 dpmm; written 4, the symbol is 11% smaller\|7\|24\|\^BC\|\|Drawn as a \d+x\d+-dot \^GF graphic/,
      );
      const round = await asked({ 'X-Target-Dpmm': '12', 'X-Lossy-Fields': 'round' });
      expect((round.body as Buffer).toString('latin1')).to.equal(
        (await asked({ 'X-Target-Dpmm': '12' })).body.toString('latin1'),
      );
      const bad = await asked({ 'X-Target-Dpmm': '12', 'X-Lossy-Fields': 'vector' });
      expect([bad.status, (bad.body as Buffer).toString()]).to.deep.equal([
        400,
        'ERROR: Invalid X-Lossy-Fields vector; valid values: round, bitmap',
      ]);
      const unconverted = await asked({ 'X-Lossy-Fields': 'vector' });
      expect([unconverted.status, (unconverted.body as Buffer).toString('latin1')]).to.deep.equal([200, zpl]);
    });

    it('a bad X-Target-Dpmm is a 400 naming the header', async () => {
      const { app } = await buildApp({ outputs: ['zpl'] });
      for (const bad of ['7', 'twelve', '12.5']) {
        const res = await post(app, labelsPath('8dpmm', '4x6'), OBSERVED_ZPL, {
          Accept: 'application/zpl',
          'X-Target-Dpmm': bad,
        });
        expect(res.status, bad).to.equal(400);
        expect((res.body as Buffer).toString(), bad).to.equal(
          `ERROR: Invalid X-Target-Dpmm ${bad}; valid values: 6, 8, 12, 24`,
        );
      }
    });

    it('X-Target-Dpmm and X-Formatter sent empty are absent, as every optional header: the document back as sent', async () => {
      const { app } = await buildApp({ outputs: ['zpl'] });
      const res = await post(app, labelsPath('8dpmm', '4x6'), OBSERVED_ZPL, {
        Accept: 'application/zpl',
        'X-Target-Dpmm': ' ',
        'X-Formatter': '',
      });
      expect(res.status).to.equal(200);
      expect((res.body as Buffer).toString('latin1')).to.equal(OBSERVED_ZPL);
      expect(res.headers['x-warnings']).to.equal(undefined);
    });
  });

  describe('the switch, scopes, OpenAPI and proxy mode', () => {
    it('one output alone: the other stays a 406, which now lists what is served', async () => {
      const { app } = await buildApp({ outputs: ['json'] });
      const zpl = await post(app, labelsPath('8dpmm', '4x6', '0'), OBSERVED_ZPL, { Accept: 'application/zpl' });
      expect(zpl.status).to.equal(406);
      expect((zpl.body as Buffer).toString()).to.equal(
        'ERROR: HTTP 406 Not Acceptable\nimage/png, application/pdf, application/json',
      );
      expect(() => buildApp({ outputs: ['xml' as 'json'] }).then(() => undefined)).to.not.throw();
      let failed: unknown;
      await buildApp({ outputs: ['xml' as 'json'] }).catch((e: unknown) => {
        failed = e;
      });
      expect(String(failed)).to.match(/Unknown output "xml"/);
    });

    it('JSON and ZPL count as PNG for key scopes', async () => {
      const { app } = await buildApp({ outputs: ['json', 'zpl'] });
      for (const accept of ['application/json', 'application/zpl', 'application/json, application/pdf']) {
        const png = await request(app)
          .post(labelsPath('8dpmm', '4x6', '0'))
          .set('X-API-Key', KEYS.png)
          .set('Accept', accept)
          .send(OBSERVED_ZPL);
        expect(png.status, accept).to.equal(200);
        const pdf = await request(app)
          .post(labelsPath('8dpmm', '4x6', '0'))
          .set('X-API-Key', KEYS.pdf)
          .set('Accept', accept)
          .send(OBSERVED_ZPL);
        expect(pdf.status, accept).to.equal(403);
        expect(pdf.body).to.include({ error: 'scope_denied', required: 'png', actual: 'pdf' });
      }
    });

    it('the OpenAPI document lists the new types and headers only when they are on', () => {
      const off = buildOpenApiDocument({ version: 't' }) as any;
      expect(
        Object.keys(off.paths['/printers/{dpmm}/labels/{dimensions}'].post.responses['200'].content),
      ).to.deep.equal(['application/pdf', 'image/png']);
      expect(Object.keys(off.components.parameters)).to.not.include.members([
        'header.X-Target-Dpmm',
        'header.X-Formatter',
      ]);
      const on = buildOpenApiDocument({ version: 't', api: { outputs: ['json', 'zpl'] } }) as any;
      const content = on.paths['/printers/{dpmm}/labels/{dimensions}'].post.responses['200'].content;
      expect(Object.keys(content)).to.deep.equal([
        'application/pdf',
        'image/png',
        'application/json',
        'application/zpl',
      ]);
      expect(on.components.parameters['header.X-Target-Dpmm'].schema.pattern).to.be.a('string');
      expect(on.components.parameters['header.X-Formatter']).to.be.an('object');
    });

    it('EXTRA_OUTPUTS switches them on for the server, either alone; anything else stops it', () => {
      expect(readClientOptions({}).outputs).to.deep.equal([]);
      expect(readClientOptions({ EXTRA_OUTPUTS: 'zpl' }).outputs).to.deep.equal(['zpl']);
      expect(readClientOptions({ EXTRA_OUTPUTS: ' ZPL, json ' }).outputs).to.deep.equal(['json', 'zpl']);
      expect(() => readClientOptions({ EXTRA_OUTPUTS: 'json,xml' })).to.throw(/EXTRA_OUTPUTS must list json, zpl/);
    });

    it('proxy mode forwards them as they are: the Accept we authorized and the X-Formatter and X-Target-Dpmm headers', async () => {
      const upstream = await startFakeUpstream((_r, res) => {
        res.setHeader('Content-Type', 'application/zpl');
        res.end('^XA^XZ');
      });
      try {
        const { app } = await buildApp({ outputs: ['zpl'], mode: 'proxy', upstream: { url: upstream.url } });
        const res = await request(app)
          .post(labelsPath('8dpmm', '4x6'))
          .set('X-API-Key', KEYS.png)
          .set('Accept', 'application/zpl;q=0.9, application/pdf;q=0.1')
          .set('X-Target-Dpmm', '12')
          .set('X-Formatter', 'On')
          .send(OBSERVED_ZPL);
        expect(res.status).to.equal(200);
        const [seen] = await upstream.requests(1);
        expect(seen!.headers.accept).to.equal('application/zpl');
        expect(seen!.headers['x-target-dpmm']).to.equal('12');
        expect(seen!.headers['x-formatter']).to.equal('On');
        expect(seen!.url).to.equal('/printers/8dpmm/labels/4x6');
      } finally {
        await upstream.close();
      }
    });
  });
});
