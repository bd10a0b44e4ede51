// One memory budget per document: decoded graphics (every ^XF replay of a stored format included) and the
// raster are claimed before they are allocated, and a document over it fails with a `memory` error that
// says what it needed; a graphic declaring more than the object limit is refused naming what it declared.

import { expect } from 'chai';
import { deflateSync } from 'node:zlib';
import request from 'supertest';
import { layout, render, RenderError, type RenderRequest } from '../renderer/index.js';
import { BASE, buildApp, KEYS } from './helpers/http-app.js';
import { qrCodesDocument } from './helpers/qr-codes.js';

const PNG: RenderRequest = { dpmm: 8, widthIn: 4, heightIn: 6, format: 'png', index: 0 };
const MB2 = 2 * 1024 * 1024;

/** A stored format holding a Z64 graphic that inflates to 2 MB, then a label recalling it `times` times. */
function bomb(times: number): string {
  const z64 = deflateSync(Buffer.alloc(MB2, 0x55)).toString('base64');
  return `^XA^DFR:BOMB.ZPL^FS^FO0,0^GFA,${MB2},${MB2},1024,:Z64:${z64}:0000^FS^XZ^XA${'^XFR:BOMB.ZPL^FS'.repeat(times)}^XZ`;
}

async function failure(p: Promise<unknown>): Promise<RenderError> {
  try {
    await p;
  } catch (err) {
    return err as RenderError;
  }
  throw new Error('expected the render to fail');
}

describe('document memory budget', function () {
  this.timeout(60_000);

  it('counts every ^XF replay of a stored graphic and refuses the document past the budget', async () => {
    const ok = await render(bomb(8), PNG);
    expect(ok.totalCount).to.equal(1);
    const err = await failure(render(bomb(8), { ...PNG, maxDocumentBytes: 8 * MB2 }));
    expect(err).to.be.instanceOf(RenderError);
    expect(err.code).to.equal('memory');
    // 4x6 at 8 dpmm: 812x1218 dots, raster and PNG rows claimed first, then 2 MB per replay.
    const raster = 812 * 1218 * 2 + 1218;
    const replaysFitting = Math.floor((8 * MB2 - raster) / MB2);
    expect(err.message).to.equal(
      `Graphic needs ${MB2} bytes; with the ${raster + replaysFitting * MB2} bytes this document already uses, ` +
        `that exceeds its memory budget of ${8 * MB2} bytes`,
    );
  });

  it('holds for every PDF form too: vector (the default), raster, and labels composed on sheets', async () => {
    const pdf: RenderRequest = { dpmm: 8, widthIn: 4, heightIn: 6, format: 'pdf', maxDocumentBytes: 8 * MB2 };
    const page = { columns: 1, rows: 1, align: 'justify', verticalAlign: 'justify', border: 'none' } as const;
    for (const req of [pdf, { ...pdf, pdf: 'raster' as const }, { ...pdf, page }]) {
      const err = await failure(render(bomb(8), req));
      expect(err.code, JSON.stringify(req)).to.equal('memory');
      expect(err.message).to.match(/^Graphic needs 2097152 bytes; .* memory budget of 16777216 bytes$/);
      expect((await render(bomb(2), req)).pages).to.equal(1);
    }
  });

  it("stops a vector PDF at a checkpoint between labels and fields, with the checkpoint's error", async () => {
    const zpl = '^XA^FO10,10^A0N,40,40^FDone^FS^FO10,60^GB100,100,4^FS^XZ'.repeat(3);
    let calls = 0;
    const stop = new RenderError('cancelled', 'gone');
    const err = await failure(
      render(
        zpl,
        { dpmm: 8, widthIn: 4, heightIn: 6, format: 'pdf' },
        {
          checkpoint: () => {
            if (++calls > 4) throw stop;
          },
        },
      ),
    );
    expect(err).to.equal(stop);
    calls = -Infinity; // never stops: every label drawn
    expect(
      (
        await render(
          zpl,
          { dpmm: 8, widthIn: 4, heightIn: 6, format: 'pdf' },
          {
            checkpoint: () => {
              calls++;
            },
          },
        )
      ).pages,
    ).to.equal(3);
  });

  it('checks in while interpreting: a 10,000-command document stops at a checkpoint before it is refused for its labels', async () => {
    const zpl = '^XA^XZ'.repeat(5000);
    expect((await failure(render(zpl, PNG))).code).to.equal('too-many-labels');
    let calls = 0;
    const stop = new RenderError('cancelled', 'gone');
    expect(
      await failure(
        render(zpl, PNG, {
          checkpoint: () => {
            calls++;
            throw stop;
          },
        }),
      ),
    ).to.equal(stop);
    expect(calls).to.equal(1);
  });

  it('refuses a label whose raster alone is over the budget before interpreting it', async () => {
    const err = await failure(
      render('^XA^FO0,0^GB10,10,10^FS^XZ', {
        dpmm: 24,
        widthIn: 15,
        heightIn: 15,
        format: 'png',
        index: 0,
        rotation: 90,
        maxDocumentBytes: 200e6,
      }),
    );
    expect(err.code).to.equal('memory');
    expect(err.message).to.match(/^A 9135x9135 dot label needs 250353810 bytes; .* memory budget of 200000000 bytes$/);
  });

  it('names the declared size of a graphic over the object limit, not the clamped one', async () => {
    for (const zpl of [
      '^XA^FO0,0^GFA,2000000000,2000000000,100,FFFF^FS^XZ',
      '~DGR:BIG.GRF,2000000000,100,FFFF^XA^FO0,0^XGR:BIG.GRF^FS^XZ',
    ]) {
      const err = await failure(render(zpl, PNG));
      expect([err.code, err.message], zpl).to.deep.equal([
        'too-large',
        'Graphic is 2000000000 bytes; the maximum object size is 2097152 bytes',
      ]);
    }
  });

  it('claims the display list: a label of QR codes past the budget is refused, naming the display list', async () => {
    const budget = 4 * MB2; // the raster's 2 MB and about 2,000 module rects a code
    expect((await render(qrCodesDocument(2), { ...PNG, maxDocumentBytes: budget })).pages).to.equal(1);
    const err = await failure(render(qrCodesDocument(40), { ...PNG, maxDocumentBytes: budget }));
    expect(err.code).to.equal('memory');
    expect(err.message).to.match(
      /^The display list needs \d+ bytes; with the \d+ bytes this document already uses, that exceeds its memory budget of 8388608 bytes$/,
    );
  });

  it("gives a label's display list back when the next is laid out: ten copies fit where one does", async () => {
    const qr = (i: number) => `^FO${i * 120},0^BQN,2,4^FDMA,${'X1Y2Z3'.repeat(100)}^FS`;
    const zpl = `^XA^PQ10${[0, 1, 2].map(qr).join('')}^XZ`;
    const budget = 4 * MB2;
    for (const pdf of ['vector', 'raster'] as const) {
      const one = await render(zpl, {
        dpmm: 8,
        widthIn: 4,
        heightIn: 6,
        format: 'pdf',
        index: 0,
        pdf,
        maxDocumentBytes: budget,
      });
      expect(one.pages).to.equal(1);
      const all = await render(zpl, { dpmm: 8, widthIn: 4, heightIn: 6, format: 'pdf', pdf, maxDocumentBytes: budget });
      expect(all.pages, pdf).to.equal(10);
    }
    // Ten labels' lists at once would not have fitted.
    const elements = layout(zpl, { dpmm: 8, widthIn: 4, heightIn: 6 }).elements.length;
    expect(10 * elements * 180).to.be.greaterThan(budget - 812 * 1218 * 2);
  });

  it('answers a document over its budget with 413 and an ERROR: text over HTTP', async () => {
    const { app } = await buildApp({ renderThreads: 0 });
    const res = await request(app)
      .post(`${BASE}/printers/8dpmm/labels/4x6/0`)
      .set('X-API-Key', KEYS.all)
      .type('form')
      .send(bomb(200));
    expect(res.status).to.equal(413);
    expect(res.text).to.match(
      /^ERROR: Graphic needs 2097152 bytes; with the \d+ bytes this document already uses, that exceeds its memory budget of 268435456 bytes$/,
    );
  });
});
