// What the router answers once the renderer has run: headers, X-Warnings, and renderer errors as plain text.

import { expect } from 'chai';
import request from 'supertest';
import { RenderError, type Diagnostic, type RenderErrorCode } from '../renderer/index.js';
import { binaryBody, buildApp, KEYS, labelsPath, recordingRender } from './helpers/http-app.js';

const path = labelsPath('8dpmm', '4x6', '0');
const ZPL = '^XA^FO10,10^GB50,50,50^FS^XZ';

describe('HTTP: responses', () => {
  it('sends the body with Content-Type, X-Total-Count and an inline Content-Disposition', async () => {
    const render = recordingRender({ body: Buffer.from('PNGDATA'), totalCount: 4 });
    const { app } = await buildApp({ render });
    const res = await request(app)
      .post(path)
      .set('X-API-Key', KEYS.all)
      .type('form')
      .send(ZPL)
      .buffer(true)
      .parse(binaryBody);
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('image/png');
    expect(res.headers['x-total-count']).to.equal('4');
    expect(res.headers['content-disposition']).to.equal('inline; filename="label.png"');
    expect((res.body as Buffer).toString()).to.equal('PNGDATA');
  });

  describe('X-Warnings', () => {
    const diagnostic = (i: number): Diagnostic => ({
      byteIndex: 10 * i,
      byteSize: 2,
      command: '^FO',
      param: i % 3,
      message: `Value ${i} is out of range`,
    });

    it('lists diagnostics as byteIndex|byteSize|command|param|message, param 0 as empty', async () => {
      const warnings = [
        diagnostic(1),
        diagnostic(3),
        { byteIndex: 0, byteSize: 0, command: '', param: 0, message: 'No ^XZ' },
      ];
      const { app } = await buildApp({ render: recordingRender({ warnings }) });
      const res = await request(app).post(path).set('X-API-Key', KEYS.all).set('X-Linter', 'On').type('form').send(ZPL);
      expect(res.headers['x-warnings']).to.equal(
        '10|2|^FO|1|Value 1 is out of range|30|2|^FO||Value 3 is out of range|0|0|||No ^XZ',
      );
    });

    it('caps the list at 20 and accepts On in any case', async () => {
      const warnings = Array.from({ length: 25 }, (_, i) => diagnostic(i));
      const { app } = await buildApp({ render: recordingRender({ warnings }) });
      const res = await request(app).post(path).set('X-API-Key', KEYS.all).set('X-Linter', 'oN').type('form').send(ZPL);
      const fields = (res.headers['x-warnings'] as string).split('|');
      expect(fields).to.have.length(20 * 5);
      expect(fields.slice(-5)).to.deep.equal(['190', '2', '^FO', '1', 'Value 19 is out of range']);
    });

    it('keeps header-unsafe characters out of the value', async () => {
      const warnings = [{ byteIndex: 1, byteSize: 1, command: '^FD', param: 1, message: 'Bad \u00e9 | char\r\nnext' }];
      const { app } = await buildApp({ render: recordingRender({ warnings }) });
      const res = await request(app).post(path).set('X-API-Key', KEYS.all).set('X-Linter', 'on').type('form').send(ZPL);
      expect(res.status).to.equal(200);
      expect(res.headers['x-warnings']).to.equal('1|1|^FD|1|Bad ?   char  next');
    });

    it('is absent with the linter off, or with nothing to report', async () => {
      const { app } = await buildApp({ render: recordingRender({ warnings: [diagnostic(1)] }) });
      for (const linter of [undefined, 'Off', 'yes']) {
        const req = request(app).post(path).set('X-API-Key', KEYS.all).type('form');
        const res = await (linter ? req.set('X-Linter', linter) : req).send(ZPL);
        expect(res.headers, String(linter)).to.not.have.property('x-warnings');
      }
      const { app: clean } = await buildApp({ render: recordingRender({ warnings: [] }) });
      const res = await request(clean)
        .post(path)
        .set('X-API-Key', KEYS.all)
        .set('X-Linter', 'On')
        .type('form')
        .send(ZPL);
      expect(res.headers).to.not.have.property('x-warnings');
    });
  });

  describe('renderer errors', () => {
    const cases: Array<[RenderErrorCode, string, number]> = [
      ['no-labels', 'Requested 1st label but ZPL generated no labels', 404],
      ['index-out-of-range', 'Requested 3rd label but ZPL only generated 2 labels', 404],
      ['too-many-labels', 'ZPL generated more than 50 labels', 413],
      ['too-large', 'Label is too large', 400],
      ['invalid', 'Invalid ^GF data', 400],
      ['timeout', 'Rendering took too long', 500],
      ['failed', 'Failed to render label', 500],
    ];
    for (const [code, message, status] of cases) {
      it(`${code} -> ${status} ERROR: ${message}`, async () => {
        const { app } = await buildApp({ render: recordingRender({}, () => new RenderError(code, message)) });
        const res = await request(app).post(path).set('X-API-Key', KEYS.all).type('form').send(ZPL);
        expect(res.status).to.equal(status);
        expect(res.headers['content-type']).to.match(/^text\/plain/);
        expect(res.text).to.equal(`ERROR: ${message}`);
      });
    }

    it('answers an unexpected failure with a 500 that shows no message, stack or path', async () => {
      const logged: string[] = [];
      const failure = new Error('ENOENT: /srv/secret/fonts/x.ttf');
      const { app } = await buildApp({ render: recordingRender({}, () => failure), log: (m) => logged.push(m) });
      const res = await request(app)
        .post(path)
        .set('X-API-Key', KEYS.all)
        .set('X-Request-Id', 'req-1')
        .type('form')
        .send(ZPL);
      expect(res.status).to.equal(500);
      expect(res.text).to.equal('ERROR: Internal server error');
      expect(logged.join('\n')).to.contain('[req-1] unexpected failure').and.to.contain('/srv/secret');
    });
  });
});
