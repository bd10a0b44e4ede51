// Print jobs in six printer languages (IPL, EPL, DPL, SBPL, PCL 5, PCL XL): each job, decoded by a reader written from
// that language's manual alone (test/helpers/printer-jobs/), prints exactly the dots of the `X-Quality: Bitonal` PNG
// of the same request, one print per label and in order, and its set-up commands give the label's size and density.

import { expect } from 'chai';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadLabels } from '../bench/labels.js';
import {
  OUTPUT_TYPES,
  PRINTER_LANGUAGES,
  type Dpmm,
  type PrinterLanguage,
  type RenderRequest,
  type Rotation,
} from '../renderer/api.js';
import { PRINT_JOB_ENCODERS, type LabelDots } from '../renderer/encoders/printer-jobs/index.js';
import { RenderError } from '../renderer/errors.js';
import { createRenderPool } from '../renderer/pool/index.js';
import { render } from '../renderer/render.js';
import { decodePng, type DecodedPng } from './helpers/png.js';
import { dotsUnlike, DPI, expectJobPrints, printedLabel, READ_JOB } from './helpers/printer-jobs/expect-job.js';

async function bitonalPng(zpl: Uint8Array | string, req: Omit<RenderRequest, 'format'>): Promise<DecodedPng> {
  return decodePng((await render(zpl, { ...req, format: 'png', index: req.index ?? 0, quality: 'bitonal' })).body);
}

/** Renders the job and checks every label it prints against the bitonal PNGs of the same request. */
async function expectSameDots(
  language: PrinterLanguage,
  zpl: Uint8Array | string,
  req: Omit<RenderRequest, 'format'>,
  pngs: DecodedPng[],
  what: string,
): Promise<void> {
  const result = await render(zpl, { ...req, format: language });
  expect(result.contentType, `${what} ${language}`).to.equal(OUTPUT_TYPES[language].mediaType);
  expect(result.pages, `${what} ${language}: pages`).to.equal(pngs.length);
  expectJobPrints(language, result.body, printedLabel(req, pngs[0]!), pngs, what);
}

const carrier = loadLabels('carrier');

describe('print jobs in printer languages', function () {
  this.timeout(0);

  it('the corpus has the 26 carrier labels', () => {
    expect(carrier).to.have.length(26);
  });

  for (const dpmm of [6, 8, 12, 24] as const) {
    it(`${dpmm} dpmm: each carrier label's job in every language prints the bitonal PNG's dots, size and density`, async () => {
      for (const label of carrier) {
        const req = { dpmm, widthIn: label.widthIn, heightIn: label.heightIn, index: 0 };
        const png = await bitonalPng(label.zpl, req);
        for (const language of PRINTER_LANGUAGES) await expectSameDots(language, label.zpl, req, [png], label.id);
      }
    });
  }

  // Three carrier labels and one printed twice by ^PQ: five labels, one print each, in order.
  const document = Buffer.concat([
    ...carrier.slice(0, 3).map((l) => l.zpl),
    Buffer.from('^XA^FO40,40^GB300,200,12^FS^FO60,300^A0N,60,60^FDCOPY^FS^PQ2^XZ'),
  ]);

  for (const rotation of [0, 90] as Rotation[]) {
    it(`all labels (no index), rotation ${rotation}: one print per label, ^PQ copies included, each the PNG's dots`, async () => {
      for (const dpmm of [8, 12] as const) {
        const req = { dpmm, widthIn: 4, heightIn: 6, rotation };
        const pngs: DecodedPng[] = [];
        for (let index = 0; index < 5; index++) pngs.push(await bitonalPng(document, { ...req, index }));
        for (const language of PRINTER_LANGUAGES) {
          await expectSameDots(language, document, req, pngs, `${dpmm} dpmm all labels`);
        }
      }
    });
  }

  it('rotation 90 and 270 on single labels turn the job as the PNG, its size with it', async () => {
    const label = carrier[5]!;
    for (const rotation of [90, 270] as Rotation[]) {
      const req = { dpmm: 8 as Dpmm, widthIn: label.widthIn, heightIn: label.heightIn, index: 0, rotation };
      const png = await bitonalPng(label.zpl, req);
      const upright = await bitonalPng(label.zpl, { ...req, rotation: 0 });
      expect([png.width, png.height]).to.deep.equal([upright.height, upright.width]);
      for (const language of PRINTER_LANGUAGES) await expectSameDots(language, label.zpl, req, [png], `${rotation}°`);
    }
  });

  it('the index picks one label of a document', async () => {
    const req = { dpmm: 8 as Dpmm, widthIn: 4, heightIn: 6, index: 4 };
    const png = await bitonalPng(document, req);
    for (const language of PRINTER_LANGUAGES) await expectSameDots(language, document, req, [png], 'index 4');
  });

  it('an index past the last label is the PNG error; a document of no labels, the PDF one', async () => {
    for (const language of PRINTER_LANGUAGES) {
      const req = { dpmm: 8 as Dpmm, widthIn: 4, heightIn: 6, format: language };
      const past = await render(document, { ...req, index: 5 }).catch((e: unknown) => e);
      expect(past, language).to.be.instanceOf(RenderError).with.property('code', 'index-out-of-range');
      const none = await render('no label here', req).catch((e: unknown) => e);
      expect(none, language).to.be.instanceOf(RenderError).with.property('code', 'no-labels');
    }
  });

  it('IPL refuses a label past its 8192-dot addresses with a clear error', async () => {
    const zpl = '^XA^FO10,10^GB100,100,10^FS^XZ';
    const err = await render(zpl, { dpmm: 24, widthIn: 1, heightIn: 14, format: 'ipl' }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(RenderError).with.property('code', 'too-large');
    expect((err as Error).message).to.match(/IPL addresses at most 8192 dots a side; this label is 609x8526 dots/);
  });

  it('any dots, any size (a width off the byte, blank and full rows, wider than one DPL or SBPL image) round-trip', async () => {
    const dots = fc
      .record({ width: fc.integer({ min: 1, max: 90 }), height: fc.integer({ min: 1, max: 40 }), seed: fc.integer() })
      .map(({ width, height, seed }) => randomDots(width, height, seed));
    await fc.assert(
      fc.asyncProperty(dots, fc.constantFrom(...PRINTER_LANGUAGES), async (label, language) => {
        await expectEncoded(language, [label, invert(label)]);
      }),
      { numRuns: 300, seed: 51 },
    );
    // Wider than a DPL record (2040 dots) and an SBPL graphic (999 bytes).
    for (const language of PRINTER_LANGUAGES) await expectEncoded(language, [randomDots(8100, 20, 7)], 24);
  });

  it('a render pool answers the same job bytes, all labels admitted as pages', async () => {
    const pool = createRenderPool({ threads: 1, timeoutMs: 60_000 });
    try {
      for (const language of PRINTER_LANGUAGES) {
        const req = { dpmm: 8 as Dpmm, widthIn: 4, heightIn: 6, format: language };
        const admitted: number[] = [];
        const pooled = await pool.render(document, req, { admit: (plan) => void admitted.push(plan.pages) });
        const inline = await render(document, req);
        expect(Buffer.compare(Buffer.from(pooled.body), Buffer.from(inline.body)), language).to.equal(0);
        expect([pooled.contentType, pooled.pages, admitted], language).to.deep.equal([inline.contentType, 5, [5]]);
      }
    } finally {
      await pool.close();
    }
  });

  it('zpl-render --format writes the same bytes as the library', async () => {
    const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/zpl-render.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zpl-jobs-'));
    try {
      const file = path.join(dir, 'doc.zpl');
      fs.writeFileSync(file, document);
      for (const language of PRINTER_LANGUAGES) {
        const out = path.join(dir, `out.${OUTPUT_TYPES[language].extension}`);
        const r = spawnSync(process.execPath, [cli, file, '--format', language, '--rotation', '90', '-o', out]);
        expect(r.status, r.stderr.toString()).to.equal(0);
        const lib = await render(document, { dpmm: 8, widthIn: 4, heightIn: 6, format: language, rotation: 90 });
        expect(Buffer.compare(fs.readFileSync(out), Buffer.from(lib.body)), language).to.equal(0);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Dots from a seed: mostly runs (as labels are), some noise, a blank row and a full one. */
function randomDots(width: number, height: number, seed: number): LabelDots {
  const stride = (width + 7) >> 3;
  const bits = new Uint8Array(stride * height);
  let s = seed >>> 0 || 1;
  const rand = (): number => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 8) / (1 << 24);
  for (let y = 0; y < height; y++) {
    const kind = rand();
    let black = rand() < 0.5;
    for (let x = 0; x < width; x++) {
      if (kind < 0.15) black = false;
      else if (kind < 0.25) black = true;
      else if (rand() < 0.2) black = !black;
      if (black) bits[y * stride + (x >> 3)]! |= 0x80 >> (x & 7);
    }
    if (y > 0 && rand() < 0.2) bits.copyWithin(y * stride, (y - 1) * stride, y * stride);
  }
  return { width, height, stride, bits };
}

function invert(l: LabelDots): LabelDots {
  const bits = l.bits.map((b) => b ^ 0xff);
  const tail = l.width & 7 ? (0xff00 >> (l.width & 7)) & 0xff : 0xff;
  for (let y = 0; y < l.height; y++) bits[y * l.stride + l.stride - 1]! &= tail;
  return { ...l, bits };
}

/** Encodes the labels directly and reads them back: every dot as given. */
async function expectEncoded(language: PrinterLanguage, labels: LabelDots[], dpmm: Dpmm = 8): Promise<void> {
  const first = labels[0]!;
  const setup = { dpmm, widthIn: first.width / DPI[dpmm], heightIn: first.height / DPI[dpmm] };
  const job = await PRINT_JOB_ENCODERS[language](labels, setup);
  const printed = READ_JOB[language](job, { ...setup, width: first.width, height: first.height });
  expect(printed.length, language).to.equal(labels.length);
  printed.forEach((p, i) => {
    const l = labels[i]!;
    const gray = new Uint8Array(l.width * l.height);
    for (let y = 0; y < l.height; y++)
      for (let x = 0; x < l.width; x++)
        gray[y * l.width + x] = l.bits[y * l.stride + (x >> 3)]! & (0x80 >> (x & 7)) ? 0 : 255;
    expect(dotsUnlike(p, { width: l.width, height: l.height, bitDepth: 1, colorType: 0, gray }), language).to.equal(0);
  });
}
