// The renderer's other outputs without HTTP: label data, the formatter's layout (every corpus document re-parses to
// the same labels), the density conversion (through the parameter table, on real carrier labels: ink F1 against the
// original scaled, barcodes decoded, nothing off the label), and zpl-render giving the same bytes as the API.

import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import request from 'supertest';
import { densityScore, scaleInk } from '../bench/density-fidelity.js';
import { loadCorpus, readCorpusFile } from '../bench/corpus.js';
import { FIELD_KINDS } from '../renderer/commands/field-kinds.js';
import { commandTable } from '../renderer/commands/index.js';
import type { Dpmm } from '../renderer/api.js';
import { interpret } from '../renderer/interpreter.js';
import type { Field } from '../renderer/model.js';
import { convertDensity, layoutZpl, resample } from '../renderer/outputs/index.js';
import { render } from '../renderer/render.js';
import { createRenderPool } from '../renderer/pool/index.js';
import { decodeGreyPng } from '../compare/png.js';
import { binaryBody, buildApp, KEYS, labelsPath } from './helpers/http-app.js';

const latin1 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));
const text = (b: Uint8Array): string => Buffer.from(b).toString('latin1');

/** A 2x1 in label at 8 dpmm converted to 12 dpmm with X-Lossy-Fields: bitmap: the ZPL and the conversion's notices. */
async function toTwelveAsBitmaps(zpl: string): Promise<{ zpl: string; notices: string[] }> {
  const out = await render(zpl, {
    dpmm: 8,
    widthIn: 2,
    heightIn: 1,
    format: 'zpl',
    targetDpmm: 12,
    lossyFields: 'bitmap',
  });
  return { zpl: text(out.body), notices: out.notices!.map((n) => n.message) };
}

/** Converts `zpl` from 8 dpmm (the plan the converter reads is the source document's). */
function convert(zpl: string, to: Dpmm) {
  const bytes = latin1(zpl);
  const out = convertDensity(bytes, 8, to, interpret(bytes, 8));
  return {
    zpl: text(out.bytes),
    warnings: out.warnings.map((w) => `${w.byteIndex}|${w.command}|${w.param}|${w.message}`),
  };
}

/** What a field is, without where its bytes stand in the document. */
function fieldShape(f: Field): unknown {
  const { at: _at, end: _end, dataAt: _dataAt, payload: _payload, graphic, object, ...rest } = f;
  return {
    ...rest,
    data: f.data && text(f.data),
    graphic: graphic && [graphic.width, graphic.height, text(graphic.data)],
    object: object?.name,
  };
}

describe('extra outputs in the renderer', function () {
  this.timeout(600_000);

  it('says for every number in the command table what it measures (dots, module, ratio or count)', () => {
    const unmarked: string[] = [];
    for (const [key, def] of Object.entries(commandTable)) {
      for (const spec of def.params ?? [])
        if ((spec.kind === 'int' || spec.kind === 'float') && !spec.measure) unmarked.push(`${key} ${spec.name}`);
    }
    for (const [kind, { params }] of Object.entries(FIELD_KINDS)) {
      for (const spec of params as readonly { kind: string; name: string; measure?: string }[])
        if ((spec.kind === 'int' || spec.kind === 'float') && !spec.measure) unmarked.push(`${kind} ${spec.name}`);
    }
    expect(unmarked).to.deep.equal([]);
    const measureOf = (key: string, name: string) => commandTable[key]!.params!.find((s) => s.name === name)!.measure;
    expect([
      measureOf('^BY', 'moduleWidth'),
      measureOf('^BY', 'ratio'),
      measureOf('^BY', 'height'),
      measureOf('^PQ', 'quantity'),
      measureOf('^FO', 'x'),
    ]).to.deep.equal(['module', 'ratio', 'dots', 'count', 'dots']);
  });

  describe('the formatter', () => {
    it('lays out the recorded answer and keeps data, binary payloads and prefixes as sent', () => {
      expect(text(layoutZpl(latin1('^XA^FO50,50^A0,50^FD Field 1^FS^XZ')))).to.equal(
        '^XA\n^FO50,50^A0,50^FD Field 1^FS\n^XZ',
      );
      expect(text(layoutZpl(latin1('^XA^FXnote^FS^FO1,1^FDa^FS^FS^XZ')))).to.equal(
        '^XA\n^FXnote^FS\n^FO1,1^FDa^FS^FS\n^XZ',
      );
      expect(
        text(
          layoutZpl(
            latin1(
              '~DGR:A.GRF,2,1,\r\nFF\r\n00\r\n^XA\r\n^PW400 \r\n^BY2\r\n^FO1,2\r\n^BCN,50\r\n^FDab \r\nc^FS^CC+\r\n+FO3,4+GFB,2,2,1,\n\x00+FS+XZ',
            ),
          ),
        ),
      ).to.equal(
        '~DGR:A.GRF,2,1,FF00\n^XA\n^PW400\n^BY2\n^FO1,2^BCN,50^FDab c^FS\n^CC+\n+FO3,4+GFB,2,2,1,\n\x00+FS\n+XZ',
      );
    });

    it('re-parses to the same labels for every document of the corpus', () => {
      const corpus = loadCorpus();
      const differ: string[] = [];
      for (const c of corpus.cases) {
        const zpl = new Uint8Array(readCorpusFile(corpus, c.zpl));
        const before = interpret(zpl, c.dpmm).labels.map((l) => [l.copies, l.fields.map(fieldShape)]);
        const after = interpret(layoutZpl(zpl), c.dpmm).labels.map((l) => [l.copies, l.fields.map(fieldShape)]);
        if (JSON.stringify(before) !== JSON.stringify(after)) differ.push(c.id);
      }
      expect(differ).to.deep.equal([]);
    });
  });

  describe('density conversion', () => {
    it('gives the document back byte for byte at its own density', () => {
      const zpl = latin1('^XA^FO10,10^A0N,25^FDx^FS^XZ\r\n');
      expect(convertDensity(zpl, 8, 8, interpret(zpl, 8)).bytes).to.equal(zpl);
    });

    it('rescales dots, keeps module widths whole, ratios and counts as they are, and rewrites only what changes', () => {
      const { zpl, warnings } = convert(
        '^XA^PW812^LL1218^LH10,20^LT6^LS-8^FWR^BY2,2.5,50^FO100, 50^A0N,30,20^FB300,2,4,C,0^FDx^FS^PQ3^XZ',
        12,
      );
      expect(zpl).to.equal(
        '^XA^CFA,9,5^PW1216^LL1824^LH15,30^LT9^LS-12^FWR^BY3,2.5,75^FO150, 75^A0N,45,30^FB449,2,6,C,0^FDx^FS^PQ3^XZ',
      );
      expect(warnings).to.deep.equal([]);
      expect(convert('^XA^LT100^FO1,1^FDx^FS^XZ', 24).warnings).to.deep.equal([
        '6|^LT|1|100 becomes 300 at 24 dpmm, outside -120..120; written 120',
      ]);
    });

    it("keeps a font 0 line's baseline where it prints, not its cell top (the baseline row is floor(0.75 x height))", async () => {
      // 25 dots at 8 dpmm: baseline 18 below the top, y 24 + 18 = 42 -> 126 at 24; 75 dots there: 56 below, so the top is 70.
      expect(convert('^XA^FO20,24^A0N,25,25^FDShip^FS^XZ', 24).zpl).to.equal(
        '^XA^CFA,27,15^FO60,70^A0N,75,75^FDShip^FS^XZ',
      );
      // B reads upward, its baseline is across x: x moves, y is scaled; ^FT is the baseline already.
      expect(convert('^XA^FO20,24^A0B,25,25^FDShip^FS^FT20,24^A0N,25,25^FDShip^FS^XZ', 24).zpl).to.equal(
        '^XA^CFA,27,15^FO58,72^A0B,75,75^FDShip^FS^FT60,72^A0N,75,75^FDShip^FS^XZ',
      );
      const ink = async (zpl: string, dpmm: Dpmm) => {
        const g = await decodeGreyPng(
          (await render(latin1(zpl), { dpmm, widthIn: 2, heightIn: 1, format: 'png' })).body,
        );
        let bottom = -1;
        for (let i = 0; i < g.grey.length; i++) if (g.grey[i]! < 128) bottom = Math.floor(i / g.width);
        return bottom + 1;
      };
      // The flat bottom of "H" (on the baseline) is 3 times as low at 24 dpmm as at 8.
      const zpl = '^XA^FO20,24^A0N,25,25^FDH^FS^XZ';
      expect(await ink(convert(zpl, 24).zpl, 24)).to.equal(3 * (await ink(zpl, 8)));
    });

    it('X-Lossy-Fields: bitmap writes a field with no whole-dot form as ^GF of its drawing, scaled: the pixels of the original', async () => {
      const zpl =
        '^XA^LH4,6^FO10,10^BY3^BCN,60,N^FD12345678^FS^FO10,120^A0N,30^FDtext^FS^FO10,170^BY2^BCN,40,N^FD12^FS^XZ';
      const req = { dpmm: 8, widthIn: 2, heightIn: 1.5, format: 'zpl', targetDpmm: 12 } as const;
      const rounded = await render(zpl, req);
      const bitmap = await render(zpl, { ...req, lossyFields: 'bitmap' });
      // The ^BY3 symbol becomes a picture; ^BY4 it set stays for what follows; text and the exact ^BY2 -> 3 symbol stay commands.
      const kinds = (z: Uint8Array) => interpret(z, 12).labels[0]!.fields.map((f) => f.kind);
      expect(kinds(rounded.body)).to.deep.equal(['BC', 'text', 'BC']);
      expect(kinds(bitmap.body)).to.deep.equal(['GF', 'text', 'BC']);
      expect(text(bitmap.body)).to.match(
        /\^LH0,0\^FO\d+,\d+,0\^GFA,\d+,\d+,\d+,:Z64:[^^]+\^FS\^LH6,9\n\^BY4\^FO15,180\^A0N,45/,
      );
      expect(bitmap.notices!.map((n) => `${n.byteIndex}|${n.command}|${n.message}`)).to.deep.equal([
        '9|^BC|Drawn as a 553x90-dot ^GF graphic of its 8 dpmm drawing (X-Lossy-Fields: bitmap): Module width 3 is 4.5 dots at 12 dpmm; written 4, the symbol is 11% smaller',
      ]);
      // Where the symbol prints, the converted label is the original scaled, pixel for pixel; rounded, it is not.
      const png = async (z: Uint8Array | string, dpmm: Dpmm) =>
        decodeGreyPng((await render(z, { dpmm, widthIn: 2, heightIn: 1.5, format: 'png' })).body);
      const original = await png(zpl, 8),
        asBitmap = await png(bitmap.body, 12),
        asRounded = await png(rounded.body, 12);
      const reference = scaleInk(original, 304 / 203, asBitmap.width, asBitmap.height);
      const differing = (g: { grey: Uint8Array; width: number }) => {
        let n = 0;
        for (let i = 0; i < g.width * 170; i++) if (g.grey[i]! < 128 !== reference.grey[i]! < 128) n++;
        return n;
      };
      expect(differing(asBitmap)).to.equal(0);
      expect(differing(asRounded)).to.be.greaterThan(1000);
    });

    it("X-Lossy-Fields: bitmap keeps the power-up defaults before a first field it draws, and drops that field's ^GB", async () => {
      const convertBitmap = async (zpl: string) => (await toTwelveAsBitmaps(zpl)).zpl;
      // The second symbol leans on the power-up ^BY2, written as ^BY3 at 12 dpmm right after ^XA.
      const first = await convertBitmap('^XA^FO10,10^ADN,18,10^FDab^FS^FO10,40^BCN,40^FD12^FS^XZ');
      expect(first).to.match(/^\^XA\^CFA,9,5\^BY3,3,15\^LH0,0\^FO\d+,\d+,0\^GFA,/);
      expect(interpret(latin1(first), 12).labels[0]!.fields.map((f) => f.kind)).to.deep.equal(['GF', 'BC']);
      // A ^GB in a field drawn as a picture is part of that picture: no ^GB left behind without its ^FO and ^FS.
      const box = await convertBitmap('^XA^BY3^FO10,10^BCN,50^GB20,20,2^FD12^FS^XZ');
      expect(box).to.include('^GFA').and.not.include('^GB');
    });

    it('X-Lossy-Fields: bitmap keeps commands, and says why, where a picture would be wrong', async () => {
      const convertBitmap = toTwelveAsBitmaps;
      const serial = await convertBitmap('^XA^BY3^FO10,10^BCN,50^SN001,1,Y^FS^PQ3^XZ');
      expect(serial.zpl).to.include('^BCN,75').and.not.include('^GF');
      expect(serial.notices).to.include(
        'Field not drawn as a bitmap (X-Lossy-Fields): its data changes on every copy (^SN, ^SF)',
      );
      const reverse = await convertBitmap('^XA^FO0,0^GB100,100,100^FS^BY3^FO10,10^FR^BCN,50^FD12^FS^XZ');
      expect(reverse.notices).to.include(
        'Field not drawn as a bitmap (X-Lossy-Fields): it prints in reverse (^FR, ^LR) over what lies under it',
      );
      const matrix = await convertBitmap('^XA^FO10,10^BXN,3,200^FDabc^FS^XZ');
      expect(matrix.zpl).to.include('^BXN,4,200');
      expect(matrix.notices).to.include(
        'Field not drawn as a bitmap (X-Lossy-Fields): its reader needs whole, equal modules (rounded instead)',
      );
      // A device font between two cell sizes is a picture too; nothing lossy, nothing changes.
      expect((await convertBitmap('^XA^FO10,10^ADN,18,10^FDab^FS^XZ')).zpl)
        .to.include('^GFA')
        .and.not.include('^AD');
      const exact = '^XA^BY2^FO10,10^BCN,50^FD12^FS^XZ';
      expect((await convertBitmap(exact)).zpl).to.equal(
        text((await render(exact, { dpmm: 8, widthIn: 2, heightIn: 1, format: 'zpl', targetDpmm: 12 })).body),
      );
    });

    it('says what it cannot convert faithfully: fractional modules, device fonts between cells, ^MU units', () => {
      expect(convert('^XA^BY3^FO1,1^BCN,50^FD12^FS^XZ', 12).warnings).to.deep.equal([
        '6|^BY|1|Module width 3 is 4.5 dots at 12 dpmm; written 4, the symbol is 11% smaller',
      ]);
      expect(convert('^XA^FO1,1^BQN,2,5^FDQA,x^FS^XZ', 12).warnings).to.deep.equal([
        '16|^BQ|3|Magnification 5 is 7.5 dots at 12 dpmm; written 8, the symbol is 7% larger',
      ]);
      expect(convert('^XA^FO1,1^AAN,9,5^FDx^FS^XZ', 12).warnings).to.deep.equal([
        '3|^A|0|Font A (cell 9x5 dots) grows by whole cells: 13.48x7.49 dots at 12 dpmm print as 9x5',
      ]);
      const mm = convert('^XA^MUM^FO10,10^FDx^FS^XZ', 12);
      expect(mm.zpl).to.equal('^XA^MUM^FO10,10^FDx^FS^XZ');
      expect(mm.warnings).to.deep.equal(['3|^MU|0|Units other than dots: the document is not converted to 12 dpmm']);
    });

    it('a 2-dot Code 128 bar at 8 dpmm is exactly 3 dots at 12, and the symbol reads the same', async () => {
      const { zpl } = convert('^XA^BY2^FO40,40^BCN,100,N,N,N^FD>;0123456789^FS^XZ', 12);
      const png = await decodeGreyPng(
        (await render(zpl, { dpmm: 12, widthIn: 4, heightIn: 2, format: 'png', index: 0 })).body,
      );
      const y = 60 + 40;
      const runs: number[] = [];
      let last = -1;
      for (let x = 0; x < png.width; x++) {
        const ink = png.grey[y * png.width + x]! < 128 ? 1 : 0;
        if (ink !== last) runs.push(0);
        runs[runs.length - 1]!++;
        last = ink;
      }
      const bars = runs.slice(1, -1);
      expect(
        bars.every((w) => w % 3 === 0),
        bars.join(' '),
      ).to.equal(true);
      expect(runs[0]).to.equal(60);
    });

    it('resamples ^GF, ~DG and ~DY graphics (Z64 data, byte counts and row width to match)', () => {
      const { zpl } = convert('~DGR:L.GRF,2,1,F0F0^XA^FO0,0^GFA,4,4,1,FF818181^FS^FO9,9^XGR:L.GRF,1,1^FS^XZ', 24);
      const plan = interpret(latin1(zpl), 24);
      const [gf, xg] = plan.labels[0]!.fields;
      expect([gf!.graphic!.width, gf!.graphic!.height, gf!.graphic!.stride]).to.deep.equal([24, 12, 3]);
      expect(text(gf!.graphic!.data.subarray(0, 3))).to.equal('\xff\xff\xff');
      expect(Array.from(gf!.graphic!.data.subarray(9, 12))).to.deep.equal([0xe0, 0x00, 0x07]);
      expect([xg!.object!.bits!.width, xg!.object!.bits!.height]).to.deep.equal([24, 6]);
      expect(zpl).to.match(/^~DGR:L\.GRF,18,3,:Z64:[A-Za-z0-9+/=]+:[0-9A-F]{4}\^XA/);
      const dy = convert('~DYR:Y,A,G,2,1,F0F0^XA^FO9,9^XGR:Y.GRF,1,1^FS^XZ', 24).zpl;
      expect(dy).to.match(/^~DYR:Y,A,G,18,3,:Z64:/);
      expect(interpret(latin1(dy), 24).labels[0]!.fields[0]!.object!.bits!.width).to.equal(24);
      expect(convert('~DYR:P,A,P,4,,89504E47^XA^XZ', 12).warnings).to.deep.equal([
        '0|~DY|0|Stored object kept as sent: images and fonts in it are not resampled to 12 dpmm',
      ]);
      const down = resample({ data: new Uint8Array([0xff, 0xff, 0x00, 0x00]), stride: 1, width: 8, height: 4 }, 0.5);
      expect([down.width, down.height, Array.from(down.data)]).to.deep.equal([4, 2, [0xf0, 0x00]]);
    });

    it("claims the resampled bitmaps from the document's memory budget", async () => {
      const zpl = `^XA^FO0,0^GFA,80000,80000,100,${'F'.repeat(160_000)}^FS^XZ`;
      const req = {
        dpmm: 8,
        widthIn: 4,
        heightIn: 6,
        format: 'zpl',
        targetDpmm: 24,
        maxDocumentBytes: 1024 * 1024,
      } as const;
      let failed: unknown;
      await render(zpl, req).catch((e: unknown) => {
        failed = e;
      });
      expect(failed).to.include({ code: 'memory' });
      expect((await render(zpl, { ...req, targetDpmm: 12 })).body.byteLength).to.be.greaterThan(0);
    });

    /**
     * Carrier labels from the corpus (boxes, text, Code 128, QR, ^GF and ~DG logos), each converted 8->12, 8->24 and
     * 8->6. Every barcode that reads on the original reads the same on the converted label, and no field reaches past
     * an edge it did not reach before unless a notice says why (a device font cannot shrink below one cell). Ink F1 (one pixel of tolerance) of the converted label drawn at the target
     * against the original drawn at 8 dpmm and scaled: at least 0.95 where the conversion said nothing was unfaithful;
     * the figures are printed either way (bench/density-fidelity.ts scores every carrier label).
     */
    /**
     * X-Lossy-Fields: bitmap on the labels round mode loses most on (Code 128 at ^BY3, device fonts, ^BY4 past 10 dots
     * at 24): every one at F1 >= 0.95, notices or not, and their barcodes still read.
     */
    const BITMAP_LABELS = ['fedex', 'ups', 'auspost', 'kmart', 'dhlpaket', 'swisspost', 'pocztex'];
    for (const target of [12, 24, 6] as Dpmm[]) {
      it(`8 -> ${target} dpmm with X-Lossy-Fields: bitmap: labels whose barcodes have no whole-dot module match too`, async () => {
        const corpus = loadCorpus();
        const scores = [];
        for (const name of BITMAP_LABELS) {
          const c = corpus.cases.find((k) => k.id === `labelize/labels/${name}`)!;
          const zpl = new Uint8Array(readCorpusFile(corpus, c.zpl));
          scores.push({
            round: await densityScore(c, zpl, target),
            bitmap: await densityScore(c, zpl, target, { lossyFields: 'bitmap' }),
          });
        }
        console.log(
          scores
            .map(
              ({ round, bitmap }) =>
                `    ${bitmap.id} 8->${target}: F1 ${round.f1.toFixed(4)} rounded, ${bitmap.f1.toFixed(4)} as bitmaps, ` +
                `barcodes ${bitmap.sameText}/${bitmap.barcodes}, past an edge ${bitmap.fellOff}`,
            )
            .join('\n'),
        );
        expect(scores.reduce((n, s) => n + s.bitmap.barcodes, 0)).to.be.greaterThan(0);
        for (const { bitmap } of scores) {
          expect(bitmap.f1, `${bitmap.id} F1`).to.be.at.least(0.95);
          expect(bitmap.sameText, `${bitmap.id} barcodes`).to.equal(bitmap.barcodes);
          expect(bitmap.fellOff, `${bitmap.id} fell off`).to.equal(0);
        }
        // Where rounding has to change a symbol's size, the pictures are what reaches the target.
        if (target !== 24) expect(scores.filter((s) => s.round.f1 < 0.95).length).to.be.greaterThan(0);
      });
    }

    const LABELS = ['glsdk_return', 'usps_apo', 'posteit', 'swisspost', 'dhlparceluk'];
    for (const target of [12, 24, 6] as Dpmm[]) {
      it(`8 -> ${target} dpmm: carrier labels match the original scaled, barcodes read the same, nothing falls off`, async () => {
        const corpus = loadCorpus();
        const scores = [];
        for (const name of LABELS) {
          const c = corpus.cases.find((k) => k.id === `labelize/labels/${name}`)!;
          scores.push(await densityScore(c, new Uint8Array(readCorpusFile(corpus, c.zpl)), target));
        }
        console.log(
          scores
            .map(
              (s) =>
                `    ${s.id} 8->${target}: F1 ${s.f1.toFixed(4)}, barcodes ${s.sameText}/${s.barcodes}, ` +
                `past an edge ${s.fellOff} (+${s.fellOffNoticed} said), notices ${s.notices}`,
            )
            .join('\n'),
        );
        expect(scores.reduce((n, s) => n + s.barcodes, 0)).to.be.greaterThan(0);
        for (const s of scores) {
          expect(s.sameText, `${s.id} barcodes`).to.equal(s.barcodes);
          expect(s.fellOff, `${s.id} fell off`).to.equal(0);
          if (s.notices === 0) expect(s.f1, `${s.id} F1`).to.be.at.least(0.95);
        }
      });
    }
  });

  describe('label data', () => {
    it('is the observed answer for the observed document', async () => {
      const res = await render('^XA\n^FT50,50^A0,50^FDField 1^FS\n^XZ', {
        dpmm: 8,
        widthIn: 4,
        heightIn: 6,
        format: 'json',
      });
      expect(text(res.body)).to.equal('{"labels":[{"fields":[{"x":50,"y":50,"data":"Field 1"}]}]}');
      expect([res.contentType, res.totalCount, res.pages]).to.deep.equal(['application/json', 1, 1]);
    });
  });

  it("runs in the render pool's workers with the same bytes, counts, warnings and notices as inline", async () => {
    const pool = createRenderPool({ threads: 1, timeoutMs: 30_000 });
    try {
      const zpl = '^XA^BY3^FO10,10^BCN,50^FD123^FS^FO5,5^A0N,30^FDa^FS^PQ2^XZjunk';
      for (const req of [
        { format: 'json' },
        { format: 'json', index: 1 },
        { format: 'zpl', targetDpmm: 12, formatter: true },
      ] as const) {
        const full = { dpmm: 8, widthIn: 4, heightIn: 6, ...req } as const;
        const [pooled, inline] = await Promise.all([pool.render(zpl, full), render(zpl, full)]);
        expect(Buffer.from(pooled.body).equals(Buffer.from(inline.body)), req.format).to.equal(true);
        expect([pooled.contentType, pooled.totalCount, pooled.pages, pooled.warnings, pooled.notices]).to.deep.equal([
          inline.contentType,
          inline.totalCount,
          inline.pages,
          inline.warnings,
          inline.notices,
        ]);
      }
    } finally {
      await pool.close();
    }
  });

  it('zpl-render --format json|zpl [--target-dpmm N] [--lossy-fields bitmap] [--formatter] gives the same bytes as HTTP', async () => {
    const bin = path.resolve(import.meta.dirname, '..', 'bin', 'zpl-render.js');
    const zpl = '^XA^BY3^FO10,10^BCN,50^FD123^FS^FO5,5^A0N,30^FDa^FS^PQ2^XZ';
    const { app } = await buildApp({ outputs: ['json', 'zpl'] });
    const cases: Array<[string[], Record<string, string>, string]> = [
      [['--format', 'json'], { Accept: 'application/json' }, labelsPath('8dpmm', '4x6')],
      [['--format', 'json', '--index', '1'], { Accept: 'application/json' }, labelsPath('8dpmm', '4x6', '1')],
      [['--format', 'zpl'], { Accept: 'application/zpl' }, labelsPath('8dpmm', '4x6')],
      [
        ['--format', 'zpl', '--target-dpmm', '12', '--formatter'],
        { Accept: 'application/zpl', 'X-Target-Dpmm': '12', 'X-Formatter': 'On' },
        labelsPath('8dpmm', '4x6'),
      ],
      [
        ['--format', 'zpl', '--target-dpmm', '12', '--lossy-fields', 'bitmap'],
        { Accept: 'application/zpl', 'X-Target-Dpmm': '12', 'X-Lossy-Fields': 'Bitmap' },
        labelsPath('8dpmm', '4x6'),
      ],
    ];
    for (const [args, headers, url] of cases) {
      const cli = execFileSync(process.execPath, [bin, '-', ...args], { input: zpl, stdio: ['pipe', 'pipe', 'pipe'] });
      let r = request(app).post(url).set('X-API-Key', KEYS.all);
      for (const [k, v] of Object.entries(headers)) r = r.set(k, v);
      const res = await r.buffer(true).parse(binaryBody).send(zpl);
      expect(res.status, args.join(' ')).to.equal(200);
      expect(cli.equals(res.body as Buffer), args.join(' ')).to.equal(true);
    }
  });
});
