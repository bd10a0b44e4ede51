// The worker-thread render pool: same bytes as rendering inline, RenderErrors across the thread boundary,
// a time budget that stops a runaway label and replaces its worker, and a clean close.

import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { render, RenderError, type RenderRequest } from '../renderer/index.js';
import { createRenderPool, type RenderPool } from '../renderer/pool/index.js';
import { errorFromWire, errorToWire, ownBuffer } from '../renderer/pool/wire.js';
import { loadFixtures } from './helpers/fuzz-cases.js';
import { decodePng } from './helpers/png.js';

const PNG: RenderRequest = { dpmm: 8, widthIn: 2, heightIn: 1, format: 'png', index: 0 };
const BOX = '^XA^FO10,10^GB100,50,6^FS^XZ';
/** Effectively endless: a million 15x15 inch pages at 24 dpmm, with the label limit lifted for it. */
const RUNAWAY: [string, RenderRequest] = [
  '^XA^FO10,10^GB500,500,250^FS^PQ1000000^XZ',
  { dpmm: 24, widthIn: 15, heightIn: 15, format: 'pdf', maxLabels: 2_000_000 },
];

async function rejection(p: Promise<unknown>): Promise<RenderError> {
  try {
    await p;
  } catch (err) {
    return err as RenderError;
  }
  throw new Error('expected the render to fail');
}

describe('render pool', function () {
  this.timeout(120_000);

  describe('rendering', () => {
    let pool: RenderPool;
    before(() => {
      pool = createRenderPool({ threads: 2, timeoutMs: 30_000 });
    });
    after(() => pool.close());

    it('gives the same bytes, counts and warnings as rendering inline, for PNG and PDF', async () => {
      const fixtures = loadFixtures().filter((_, i) => i % 40 === 0);
      expect(fixtures.length).to.be.at.least(15);
      const variants: Partial<RenderRequest>[] = [
        {},
        { rotation: 90, quality: 'bitonal' },
        { format: 'pdf', index: undefined },
      ];
      for (const f of fixtures) {
        for (const v of variants) {
          const req: RenderRequest = {
            dpmm: f.dpmm,
            widthIn: f.widthIn,
            heightIn: f.heightIn,
            format: 'png',
            index: f.index,
            ...v,
          };
          const [pooled, inline] = await Promise.allSettled([pool.render(f.zpl, req), render(f.zpl, req)]);
          if (inline.status === 'rejected') {
            expect(pooled.status, f.id).to.equal('rejected');
            const [a, b] = [(pooled as PromiseRejectedResult).reason as RenderError, inline.reason as RenderError];
            expect([a.code, a.message], f.id).to.deep.equal([b.code, b.message]);
            continue;
          }
          expect(pooled.status, f.id).to.equal('fulfilled');
          const [a, b] = [(pooled as PromiseFulfilledResult<Awaited<ReturnType<typeof render>>>).value, inline.value];
          expect(Buffer.from(a.body).equals(Buffer.from(b.body)), `${f.id} ${JSON.stringify(v)}`).to.equal(true);
          expect({ ...a, body: null }).to.deep.equal({ ...b, body: null });
        }
      }
    });

    it("carries the request's clock to the worker: a ^FC field prints its date, as inline", async () => {
      const clock = '^XA^FO10,10^A0N,30,30^FC%^FD%Y-%m-%d %H:%M^FS^XZ';
      const now = new Date(Date.UTC(2030, 0, 2, 3, 4));
      const [pooled, inline] = [await pool.render(clock, { ...PNG, now }), await render(clock, { ...PNG, now })];
      expect(Buffer.compare(Buffer.from(pooled.body), Buffer.from(inline.body))).to.equal(0);
      const other = await render(clock, { ...PNG, now: new Date(now.getTime() + 60_000) });
      expect(Buffer.compare(Buffer.from(pooled.body), Buffer.from(other.body))).to.not.equal(0);
    });

    it('hands back a body that owns its whole buffer (not a view into shared memory)', async () => {
      const result = await pool.render(BOX, PNG);
      expect(result.body.byteOffset).to.equal(0);
      expect(result.body.buffer.byteLength).to.equal(result.body.byteLength);
      const png = decodePng(result.body);
      expect([png.width, png.height]).to.deep.equal([406, 203]);
      expect(png.gray[12 * 406 + 12]).to.equal(0); // inside the box's 6-dot border
    });

    it('fails with the same RenderError code and message as the renderer', async () => {
      const cases: [string, RenderRequest, string, string][] = [
        [BOX, { ...PNG, index: 2 }, 'index-out-of-range', 'Requested 3rd label but ZPL only generated 1 label'],
        ['', PNG, 'no-labels', 'Requested 1st label but ZPL generated no labels'],
        [
          '^XA^PQ99999999^XZ',
          PNG,
          'too-many-labels',
          'Too many labels: the ZPL generates 99999999 labels; the maximum is 50',
        ],
        [BOX, { ...PNG, maxPixels: 1000 }, 'too-large', 'Label size 406x203 dots exceeds the limit of 1000 pixels'],
      ];
      for (const [zpl, req, code, message] of cases) {
        const err = await rejection(pool.render(zpl, req));
        expect(err).to.be.instanceOf(RenderError);
        expect([err.code, err.message]).to.deep.equal([code, message]);
        expect(err.stack ?? '').to.not.include('render-worker');
      }
    });

    it('answers many concurrent requests, each with its own label', async () => {
      const sizes = Array.from({ length: 24 }, (_, i) => 20 + i * 5);
      const results = await Promise.all(sizes.map((s) => pool.render(`^XA^FO0,0^GB${s},${s},${s}^FS^XZ`, PNG)));
      results.forEach((r, i) => {
        const png = decodePng(r.body);
        const s = sizes[i];
        expect(png.gray[(s - 1) * png.width + (s - 1)], `box ${s}`).to.equal(0);
        expect(png.gray[s * png.width + s], `box ${s}`).to.equal(255);
      });
      expect(pool.recycled).to.equal(0);
    });
  });

  describe('time budget', () => {
    it('stops a runaway label with a timeout RenderError at a checkpoint (the worker survives), and refuses requests that waited too long', async () => {
      const pool = createRenderPool({ threads: 1, expressThreads: 0, timeoutMs: 3000, queueTimeoutMs: 500 });
      try {
        await pool.render(BOX, PNG); // the worker has loaded the renderer
        const runaway = rejection(pool.render(...RUNAWAY));
        const queued = await rejection(pool.render(BOX, PNG)); // waits behind the runaway longer than the queue allows
        expect([queued.code, queued.message]).to.deep.equal([
          'overloaded',
          'The renderer is busy (waited 500 ms for a worker); retry in 1 s',
        ]);
        const err = await runaway;
        expect(err).to.be.instanceOf(RenderError);
        expect([err.code, err.message]).to.deep.equal([
          'timeout',
          'Rendering took longer than 3000 ms and was stopped',
        ]);
        // The render stopped itself between two labels: no worker was terminated.
        expect(pool.recycled).to.equal(0);
        const next = await pool.render(BOX, PNG);
        expect(decodePng(next.body).width).to.equal(406);
      } finally {
        await pool.close();
      }
    });
  });

  describe('workers still loading', () => {
    it('drops a render cancelled before any worker has loaded without terminating one, then answers the next', async () => {
      const pool = createRenderPool({ threads: 1, expressThreads: 0, timeoutMs: 60_000 });
      try {
        const hangUp = new AbortController();
        const runaway = rejection(pool.render(RUNAWAY[0], { ...RUNAWAY[1], signal: hangUp.signal }));
        hangUp.abort();
        const err = await runaway;
        expect([err.code, err.message]).to.deep.equal(['cancelled', 'The request was cancelled while rendering']);
        const next = decodePng((await pool.render(BOX, PNG)).body);
        expect([next.width, next.gray[12 * 406 + 12]]).to.deep.equal([406, 0]);
        expect(pool.recycled).to.equal(0);
      } finally {
        await pool.close();
      }
    });

    it('answers renders sent before the workers have loaded, each with its own label', async () => {
      const pool = createRenderPool({ threads: 2, expressThreads: 1, timeoutMs: 60_000 });
      try {
        const sizes = [12, 30, 47, 64, 81, 98];
        const results = await Promise.all(sizes.map((s) => pool.render(`^XA^FO0,0^GB${s},${s},${s}^FS^XZ`, PNG)));
        results.forEach((r, i) => {
          const png = decodePng(r.body);
          const s = sizes[i]!;
          expect([png.gray[(s - 1) * png.width + (s - 1)], png.gray[s * png.width + s]], `box ${s}`).to.deep.equal([
            0, 255,
          ]);
        });
        expect(pool.stats()).to.include({ busy: 0, queued: 0, recycled: 0 });
      } finally {
        await pool.close();
      }
    });
  });

  describe('memory', () => {
    it('fails a render that exhausts its worker heap with a clean RenderError and replaces the worker', async () => {
      const pool = createRenderPool({
        threads: 1,
        expressThreads: 0,
        timeoutMs: 60_000,
        resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
      });
      try {
        await pool.render(BOX, PNG);
        // 120,000 fields, each with a diagnostic: far more plan than 32 MB of heap holds.
        const err = await rejection(pool.render(`^XA${'^FO10,10^FDx^FS^ZZ'.repeat(120_000)}^XZ`, PNG));
        expect([err.code, err.message]).to.deep.equal(['memory', 'Rendering ran out of memory']);
        expect(pool.recycled).to.equal(1);
        expect(decodePng((await pool.render(BOX, PNG)).body).width).to.equal(406);
      } finally {
        await pool.close();
      }
    });
    it('fails renders with a memory RenderError, not a wait, when its workers cannot even load (heap limits far too small)', async () => {
      const pool = createRenderPool({
        threads: 1,
        expressThreads: 0,
        timeoutMs: 60_000,
        resourceLimits: { maxOldGenerationSizeMb: 2, maxYoungGenerationSizeMb: 1 },
      });
      try {
        for (let i = 0; i < 2; i++) {
          const err = await rejection(pool.render(BOX, PNG));
          expect([err.code, err.message]).to.deep.equal(['memory', 'Rendering ran out of memory']);
        }
        expect(pool.stats()).to.include({ busy: 0, queued: 0 });
      } finally {
        await pool.close();
      }
    });
  });

  describe('close', () => {
    it('lets a running render finish, then refuses new ones', async () => {
      const pool = createRenderPool({ threads: 1, timeoutMs: 30_000 });
      await pool.render(BOX, PNG);
      const running = pool.render('^XA^FO10,10^GB500,500,250^FS^PQ4^XZ', {
        dpmm: 24,
        widthIn: 15,
        heightIn: 15,
        format: 'pdf',
      });
      const closed = pool.close();
      expect(pool.close()).to.equal(closed);
      const late = await rejection(pool.render(BOX, PNG));
      expect([late.code, late.message]).to.deep.equal(['failed', 'The renderer is shutting down']);
      const result = await running;
      expect(result.pages).to.equal(4);
      await closed;
    });
  });

  describe('process flags', () => {
    it('starts its workers in a process run with V8 and process flags (--max-old-space-size, --expose-gc, --title)', async () => {
      // Workers reject such flags in execArgv; the pool must not hand them the parent's.
      const poolUrl = pathToFileURL(join(process.cwd(), 'dist', 'renderer', 'pool', 'index.js')).href;
      const script = `import { createRenderPool } from ${JSON.stringify(poolUrl)};
        const pool = createRenderPool({ threads: 1 });
        const r = await pool.render('^XA^FO1,1^GB9,9,9^FS^XZ', { dpmm: 8, widthIn: 1, heightIn: 1, format: 'png', index: 0 });
        await pool.close();
        console.log(r.contentType, r.body.length > 0);`;
      const { stdout } = await promisify(execFile)(process.execPath, [
        '--max-old-space-size=512',
        '--expose-gc',
        '--title=zpl-pool-test',
        '--input-type=module',
        '-e',
        script,
      ]);
      expect(stdout.trim()).to.equal('image/png true');
    });

    it('never detaches an ArrayBuffer in a worker (V8 would check every typed-array access for it from then on)', async () => {
      const poolUrl = pathToFileURL(join(process.cwd(), 'dist', 'renderer', 'pool', 'index.js')).href;
      const script = `import { createRenderPool } from ${JSON.stringify(poolUrl)};
        const pool = createRenderPool({ threads: 1, expressThreads: 0 });
        const png = await pool.render('^XA^FO10,10^GB100,50,6^FS^XZ', { dpmm: 8, widthIn: 2, heightIn: 1, format: 'png', index: 0 });
        const pdf = await pool.render('^XA^FO10,10^GB100,50,6^FS^XZ^XA^FO5,5^A0N,30^FDAB^FS^XZ', { dpmm: 8, widthIn: 2, heightIn: 1, format: 'pdf' });
        await pool.close();
        console.log(png.body.length > 0, pdf.pages);`;
      // V8's flags are the process's: the worker's isolate reports an invalidated protector too.
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [
        '--trace-protector-invalidation',
        '--input-type=module',
        '-e',
        script,
      ]);
      expect(stdout + stderr).to.not.include('ArrayBufferDetaching');
      expect(stdout).to.include('true 2');
    });
  });

  describe('wire format', () => {
    it('posts the buffer a body owns and copies a body that shares its buffer', () => {
      const own = new Uint8Array(16);
      expect(ownBuffer(own)).to.equal(own.buffer);
      const shared = Buffer.from('small'); // a slice of Node's shared allocation pool
      const copy = ownBuffer(shared);
      expect(copy).to.not.equal(shared.buffer);
      expect(Buffer.from(copy).toString()).to.equal('small');
    });

    it('rebuilds RenderErrors with their code, and other errors with name, message and stack', () => {
      const back = errorFromWire(errorToWire(new RenderError('too-large', 'too big')));
      expect(back).to.be.instanceOf(RenderError);
      expect([(back as RenderError).code, back.message]).to.deep.equal(['too-large', 'too big']);
      const boom = new TypeError('x is undefined');
      const other = errorFromWire(errorToWire(boom));
      expect(other).to.not.be.instanceOf(RenderError);
      expect([other.name, other.message, other.stack]).to.deep.equal(['TypeError', 'x is undefined', boom.stack]);
    });
  });
});
