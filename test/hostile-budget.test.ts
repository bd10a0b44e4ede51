// The hostile inputs of issue 50, byte for byte, each answered correctly or with a clear error naming its limit,
// by the library's render() and over HTTP through the render pool, with no render thread recycled. Timing and RSS
// figures are bench/hostile-budget.ts's; here only outcomes are asserted.

import { expect } from 'chai';
import request from 'supertest';
import { estimateCost, EXPRESS_MAX_PIXELS } from '../renderer/cost-estimate.js';
import { MAX_KEPT_DIAGNOSTICS } from '../renderer/diagnostics.js';
import { RenderError } from '../renderer/errors.js';
import { closeSharedRenderPools, sharedRenderPoolStats } from '../renderer/pool/index.js';
import { render } from '../renderer/render.js';
import type { RenderRequest } from '../renderer/api.js';
import { binaryBody, buildApp, KEYS, labelsPath, listen } from './helpers/http-app.js';
import type { RenderFunction } from '../middleware/router/router-config.js';
import {
  bitmapFontInput,
  conversionInput,
  type HostileInput,
  saveLoadInput,
  unknownCommandsInput,
} from './helpers/hostile-inputs.js';
import { withTurnsCounted } from './helpers/event-loop-turns.js';
import { decodePng } from './helpers/png.js';

const requestOf = (h: HostileInput): RenderRequest => ({ widthIn: 4, heightIn: 6, ...h.render });

async function failure(p: Promise<unknown>): Promise<RenderError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof RenderError) return err;
    throw err;
  }
  throw new Error('expected the render to fail');
}

function post(app: Parameters<typeof request>[0], h: HostileInput, linter = false) {
  const dpmm = `${h.render.dpmm}dpmm`;
  const path = h.render.index === undefined ? labelsPath(dpmm, '4x6') : labelsPath(dpmm, '4x6', String(h.render.index));
  let r = request(app).post(path).set('X-API-Key', KEYS.all);
  for (const [k, v] of Object.entries(h.headers)) r = r.set(k, v);
  if (linter) r = r.set('X-Linter', 'On');
  return r.buffer(true).parse(binaryBody).send(h.zpl);
}

describe('hostile inputs against the work meter (issue 50)', function () {
  this.timeout(120_000);
  after(() => closeSharedRenderPools());

  describe('the library', () => {
    it('refuses the 2.6 KB ^GFA conversion to 24 dpmm before any work, naming the pixel limit', async () => {
      const h = conversionInput();
      expect(h.zpl.length).to.be.lessThan(3000);
      const err = await failure(render(h.zpl, requestOf(h)));
      expect(err.code).to.equal('too-large');
      expect(err.message).to.equal(
        '^GF resampled to 24 dpmm would be 8013x32053 dots, over the limit of 83448225 pixels',
      );
    });

    it('draws the label after 300,000 unknown commands, keeping a bounded log and every feature', async () => {
      const h = unknownCommandsInput();
      const r = await render(h.zpl, requestOf(h));
      expect(decodePng(r.body).width).to.equal(812);
      expect(r.warnings).to.have.length(MAX_KEPT_DIAGNOSTICS);
      expect(r.warnings[0]).to.include({ command: '^QQ', message: 'Unknown command ^QQ; ignored' });
      expect(r.unsupported).to.deep.equal(['^QQ']);
    });

    it('draws the label after a ~DB font of 900,000 #, keeping a bounded log', async () => {
      const h = bitmapFontInput();
      const r = await render(h.zpl, requestOf(h));
      expect(decodePng(r.body).width).to.equal(812);
      expect(r.warnings.length).to.be.at.most(MAX_KEPT_DIAGNOSTICS);
    });

    it('answers ^IS/^IL doubling as JSON of 1,024 copies, and refuses more than its memory budget', async () => {
      const h = saveLoadInput();
      const r = await render(h.zpl, requestOf(h));
      const data = JSON.parse(Buffer.from(r.body).toString('utf8')) as { labels: { fields: { data: string }[] }[] };
      const fields = data.labels[0]!.fields;
      expect(fields.length).to.equal(1024);
      expect(fields.every((f) => f.data === 'Q'.repeat(1000))).to.equal(true);
      expect(r.body.length).to.be.lessThan(1.1 * 1024 * 1024);
      // The JSON is claimed before it is made: 1 MB of field data does not fit 2 MB at 4 bytes a data byte.
      const err = await failure(render(h.zpl, { ...requestOf(h), maxDocumentBytes: 2 * 1024 * 1024 }));
      expect(err.code).to.equal('memory');
      expect(err.message).to.match(/^The JSON label data needs \d+ bytes; .* memory budget of 2097152 bytes$/);
    });

    it('stops at its own deadline without a pool (zpl-render, render(), RENDER_THREADS=0)', async () => {
      const h = unknownCommandsInput();
      const err = await failure(render(h.zpl, { ...requestOf(h), timeoutMs: 0 }));
      expect(err.code).to.equal('timeout');
      expect(err.message).to.equal('Rendering took longer than 0 ms and was stopped');
    });
  });

  describe('on the event loop (RENDER_THREADS=0, the library on the main thread)', () => {
    it('gives the event loop turns while it renders, and draws the same label', async () => {
      const h = unknownCommandsInput();
      const { result, turns } = await withTurnsCounted(() => render(h.zpl, requestOf(h)));
      expect(turns).to.be.greaterThan(2);
      const whole = await render(h.zpl, requestOf(h), { sliceMs: Number.POSITIVE_INFINITY });
      expect(Buffer.from(result.body).equals(Buffer.from(whole.body))).to.equal(true);
    });

    it('answers another request on the same server while a render runs on its thread', async () => {
      const h = unknownCommandsInput();
      let rendering!: () => void;
      const started = new Promise<void>((resolve) => (rendering = resolve));
      const inline: RenderFunction = (zpl, req, hooks) => render(zpl, req, { ...hooks, started: () => rendering() });
      const { app } = await buildApp({ render: inline });
      app.get('/healthz', (_req, res) => res.send('ok'));
      const served = await listen(app);
      try {
        let settled = false;
        const label = fetch(`http://127.0.0.1:${served.port}${labelsPath('8dpmm', '4x6', '0')}`, {
          method: 'POST',
          headers: { 'X-API-Key': KEYS.all },
          body: new Uint8Array(h.zpl),
        }).then(async (res) => {
          settled = true;
          return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
        });
        await started;
        const health = await fetch(`http://127.0.0.1:${served.port}/healthz`);
        expect(await health.text()).to.equal('ok');
        expect(settled, 'the label was still rendering when /healthz answered').to.equal(false);
        const answer = await label;
        expect(answer.status).to.equal(200);
        expect(decodePng(answer.body).width).to.equal(812);
      } finally {
        served.close();
      }
    });
  });

  describe('the estimate made before any work', () => {
    it('sizes a conversion by its declared graphics at the target, and gives it no express thread', () => {
      const h = conversionInput();
      const e = estimateCost(h.zpl, { widthIn: 4, heightIn: 6, ...h.render });
      expect(e.graphics).to.deep.equal([{ command: '^GF', width: 8013, height: 32053 }]);
      expect(e.small).to.equal(false);
      const png = estimateCost(h.zpl, { widthIn: 4, heightIn: 6, dpmm: 6, format: 'png', index: 0 });
      expect(png.graphicPixels).to.equal(2000 * 8000);
      expect(png.graphicPixels).to.be.greaterThan(EXPRESS_MAX_PIXELS);
      expect(png.small).to.equal(false);
    });

    it('calls one 4x6 label with a small logo small', () => {
      const zpl = '^XA^FO10,10^GFA,800,800,10,' + 'F'.repeat(1600) + '^FS^FO10,200^A0,30^FDx^FS^XZ';
      const e = estimateCost(zpl, { widthIn: 4, heightIn: 6, dpmm: 8, format: 'png', index: 0 });
      expect(e.graphics).to.deep.equal([{ command: '^GF', width: 80, height: 80 }]);
      expect(e.small).to.equal(true);
    });
  });

  describe('over HTTP through the render pool', () => {
    it('answers each with its label or a clear ERROR line, and recycles no render thread', async () => {
      const { app } = await buildApp({ outputs: ['json', 'zpl'] });
      const before = sharedRenderPoolStats().recycled;

      const conversion = await post(app, conversionInput());
      expect(conversion.status).to.equal(400);
      expect((conversion.body as Buffer).toString('utf8')).to.equal(
        'ERROR: ^GF resampled to 24 dpmm would be 8013x32053 dots, over the limit of 83448225 pixels',
      );

      for (const h of [unknownCommandsInput(), bitmapFontInput()]) {
        const res = await post(app, h, true);
        expect(res.status, h.name).to.equal(200);
        expect(decodePng(res.body as Buffer).width).to.equal(812);
      }

      const json = await post(app, saveLoadInput());
      expect(json.status).to.equal(200);
      expect((json.body as Buffer).length).to.be.lessThan(1.1 * 1024 * 1024);

      expect(sharedRenderPoolStats().recycled).to.equal(before);
    });
  });
});
