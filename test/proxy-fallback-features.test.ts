// Fallback forwards everything this renderer does not draw: every feature name the renderer records as
// skipped or approximated (RenderResult.unsupported) sends the document to the legacy service.

import { expect } from 'chai';
import type { Express } from 'express';
import request from 'supertest';
import { render } from '../renderer/index.js';
import { binaryBody, buildFallbackApp, KEYS, labelsPath } from './helpers/http-app.js';
import { UPSTREAM_PNG, type FakeUpstream } from './helpers/upstream-fake.js';

/** Every feature the renderer reports as not drawn, with a document that has only that one. */
const NOT_DRAWN: ReadonlyArray<[feature: string, what: string, zpl: string]> = [
  ['^XY', 'an unknown command', '^XA^FO10,10^GB50,50,50^FS^XY12^XZ'],
  ['^BR:7', 'a GS1 DataBar composite, type 7', '^XA^FO10,10^BRN,7,2,1,50^FD0123456789012|1234^FS^XZ'],
  ['^BR:8', 'a GS1 DataBar composite, type 8', '^XA^FO10,10^BRN,8,2,1,50^FD0123456789012|1234^FS^XZ'],
  ['^BR:9', 'a GS1 DataBar composite, type 9', '^XA^FO10,10^BRN,9,2,1,50^FD0123456789012|1234^FS^XZ'],
  ['^BR:10', 'a GS1 DataBar composite, type 10', '^XA^FO10,10^BRN,10,2,1,50^FD0123456789012|1234^FS^XZ'],
  ['^BR:11', 'a GS1 DataBar composite, type 11', '^XA^FO10,10^BRN,11,2,1,50^FD0123456789012|1234^FS^XZ'],
  ['^BR:12', 'a GS1 DataBar composite, type 12', '^XA^FO10,10^BRN,12,2,1,50^FD0123456789012|1234^FS^XZ'],
  ['missing-glyph', 'a character no font has a glyph for', '^XA^CI28^FO10,10^A0N,60,60^FD한국어^FS^XZ'],
  ['^BQ:1', 'a QR Code Model 1 (drawn as Model 2)', '^XA^FO10,10^BQN,1,4^FDQA,hello^FS^XZ'],
  ['^BX:0', 'a Data Matrix of ECC 000-140 (drawn as ECC 200)', '^XA^FO10,10^BXN,4,0^FDhello^FS^XZ'],
  ['^BO:append', 'an Aztec structured append (one symbol drawn)', '^XA^FO10,10^BON,4,N,0,N,3,ID^FDhello^FS^XZ'],
];
const DRAWN = '^XA^FO10,10^GB50,50,50^FS^BY2^FO10,80^BRN,1,2,1,50^FD0123456789012^FS^XZ';

describe('fallback forwards every feature not drawn', () => {
  let upstream: FakeUpstream;
  let app: Express;
  let logged: string[];

  before(async () => {
    ({ app, upstream, logged } = await buildFallbackApp());
  });
  after(() => upstream.close());

  const post = (zpl: string, accept = 'image/png') =>
    request(app)
      .post(labelsPath('8dpmm', '4x6', '0'))
      .set('X-API-Key', KEYS.all)
      .set('Accept', accept)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send(zpl)
      .buffer(true)
      .parse(binaryBody);

  for (const [feature, what, zpl] of NOT_DRAWN) {
    it(`records ${what} as ${feature} and forwards it`, async () => {
      const local = await render(zpl, { dpmm: 8, widthIn: 4, heightIn: 6, format: 'png', index: 0 });
      expect(local.unsupported).to.deep.equal([feature]);
      expect(local.warnings.filter((w) => w.feature === feature)).to.have.length(1);

      const before = upstream.received.length;
      const res = await post(zpl);
      expect(res.status).to.equal(200);
      expect(res.headers['x-renderer']).to.equal('upstream');
      expect(Buffer.compare(res.body as Buffer, UPSTREAM_PNG)).to.equal(0);
      expect(upstream.received).to.have.length(before + 1);
      expect(upstream.received[before]!.body.toString('latin1')).to.equal(Buffer.from(zpl).toString('latin1'));
      const line = logged
        .map((l) => JSON.parse(l) as Record<string, string>)
        .filter((l) => l.event === 'upstream_fallback')
        .at(-1);
      expect(line?.reason).to.equal(`unsupported ${feature}`);
    });
  }

  it('forwards an all-labels PDF whose second label has a composite', async () => {
    const zpl = `${DRAWN}${NOT_DRAWN[1]![2]}`;
    const before = upstream.received.length;
    const res = await request(app)
      .post(labelsPath('8dpmm', '4x6'))
      .set('X-API-Key', KEYS.all)
      .set('Accept', 'application/pdf')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send(zpl);
    expect(res.headers['x-renderer']).to.equal('upstream');
    expect(upstream.received).to.have.length(before + 1);
  });

  it('draws locally what it draws (DataBar type 1 is no composite)', async () => {
    const before = upstream.received.length;
    const res = await post(DRAWN);
    expect(res.status).to.equal(200);
    expect(res.headers['x-renderer']).to.equal('local');
    expect(upstream.received).to.have.length(before);
  });
});
