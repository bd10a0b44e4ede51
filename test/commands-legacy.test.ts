// Commands the legacy service supports that ERP, warehouse and carrier software emit (issue 44): each renders as
// the ZPL II guide describes, proven against the same label drawn another way, pixel for pixel.

import { expect } from 'chai';
import { createRequire } from 'node:module';
import request from 'supertest';
import { render } from '../renderer/render.js';
import type { RenderRequest } from '../renderer/api.js';
import { formatClock } from '../renderer/zpl/clock.js';
import { controlBlock, macroSegments, paddedSegment } from '../renderer/barcodes/matrix/pdf417-macro.js';
import { binaryBody, buildApp, KEYS, labelsPath } from './helpers/http-app.js';
import { decodePng, type DecodedPng } from './helpers/png.js';
import { hasPoppler, rasterisePdf } from './helpers/poppler.js';
import { fieldBoxes } from '../renderer/layout/inspect.js';

const require = createRequire(import.meta.url);
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ZXing = require('@zxing/library') as typeof import('@zxing/library');

/** Reads the PDF417 symbol in a window of the label with ZXing, with its Macro PDF417 segment index. */
function readPdf417(
  img: DecodedPng,
  x0: number,
  y0: number,
  w: number,
  h: number,
): { text: string; segment?: number; last?: boolean } {
  const pad = 20,
    W = w + 2 * pad,
    H = h + 2 * pad;
  const lum = new Uint8ClampedArray(W * H).fill(255);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) lum[(y + pad) * W + x + pad] = img.gray[(y0 + y) * img.width + x0 + x]!;
  const bitmap = new ZXing.BinaryBitmap(new ZXing.HybridBinarizer(new ZXing.RGBLuminanceSource(lum, W, H)));
  const hints = new Map<number, unknown>([
    [ZXing.DecodeHintType.POSSIBLE_FORMATS, [ZXing.BarcodeFormat.PDF_417]],
    [ZXing.DecodeHintType.PURE_BARCODE, true],
  ]);
  const result = new ZXing.MultiFormatReader().decode(bitmap, hints as never);
  const macro = result.getResultMetadata()?.get(ZXing.ResultMetadataType.PDF417_EXTRA_METADATA) as
    | { getSegmentIndex(): number; isLastSegment(): boolean }
    | undefined;
  return { text: result.getText(), segment: macro?.getSegmentIndex(), last: macro?.isLastSegment() };
}

/** Saturday 7 March 2026, 15:04:05 UTC: the printer's clock in these tests. */
const NOW = new Date(Date.UTC(2026, 2, 7, 15, 4, 5));
const LABEL = { dpmm: 8, widthIn: 3, heightIn: 3, format: 'png', index: 0, now: NOW } as const satisfies RenderRequest;

async function png(zpl: string, req: Partial<RenderRequest> = {}): Promise<DecodedPng> {
  return decodePng((await render(zpl, { ...LABEL, ...req })).body);
}

async function warnings(zpl: string, req: Partial<RenderRequest> = {}): Promise<string[]> {
  return (await render(zpl, { ...LABEL, ...req })).warnings.map((w) => `${w.command}|${w.message}`);
}

/** Dots of ink in a window of the label (all of it by default). */
function ink(img: DecodedPng, x0 = 0, y0 = 0, w = img.width, h = img.height): number {
  let n = 0;
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) if (img.gray[y * img.width + x] < 128) n++;
  return n;
}

/** A window's pixels, for comparing one place of a label with another place of another label. */
function window(img: DecodedPng, x0: number, y0: number, w: number, h: number): number[] {
  const out: number[] = [];
  for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) out.push(img.gray[y * img.width + x]);
  return out;
}

/** Both labels decode to the same pixels, and have ink (a blank label would match a blank label). */
async function samePixels(zpl: string, other: string, req: Partial<RenderRequest> = {}): Promise<void> {
  const [a, b] = [await png(zpl, req), await png(other, { ...req, index: 0 })];
  expect(ink(a)).to.be.greaterThan(0);
  expect(Buffer.compare(Buffer.from(a.gray), Buffer.from(b.gray)), `${zpl} draws as ${other}`).to.equal(0);
}

async function differentPixels(zpl: string, other: string, req: Partial<RenderRequest> = {}): Promise<void> {
  const [a, b] = [await png(zpl, req), await png(other, { ...req, index: 0 })];
  expect(Buffer.compare(Buffer.from(a.gray), Buffer.from(b.gray)), `${zpl} differs from ${other}`).to.not.equal(0);
}

const text = (data: string, extra = '') => `^XA${extra}^FO20,20^A0N,28,28^FD${data}^FS^XZ`;
const clock = (indicators: string, data: string, extra = '') =>
  `^XA${extra}^FO20,20^A0N,28,28^FC${indicators}^FD${data}^FS^XZ`;

describe('legacy commands: ^FC field clock', () => {
  it("prints the date of the render request's clock, as the literal date text prints", async () => {
    await samePixels(clock('%', '%Y-%m-%d'), text('2026-03-07'));
    await differentPixels(clock('%', '%Y-%m-%d'), text('%Y-%m-%d'));
  });

  it("prints every clock code of the guide's table", async () => {
    await samePixels(clock('%', '%a %A %b %B %d %H'), text('Sat Saturday Mar March 07 15'));
    await samePixels(clock('%', '%I %j %m %M %p %S'), text('03 066 03 04 PM 05'));
    await samePixels(clock('%', '%U %W %w %y %Y'), text('09 09 06 26 2026'));
  });

  it('renders the same bytes for the same document and clock, other bytes for another day', async () => {
    const zpl = clock('%', '%Y-%m-%d');
    const a = await render(zpl, LABEL),
      b = await render(zpl, LABEL);
    expect(Buffer.compare(Buffer.from(a.body), Buffer.from(b.body))).to.equal(0);
    const nextDay = await render(zpl, { ...LABEL, now: new Date(NOW.getTime() + 86_400_000) });
    expect(Buffer.compare(Buffer.from(a.body), Buffer.from(nextDay.body))).to.not.equal(0);
    await samePixels(zpl, text('2026-03-08'), { now: new Date(NOW.getTime() + 86_400_000) });
  });

  it('reads the secondary and tertiary clocks with their own indicators, set off by ^SO', async () => {
    // Secondary: one month and two days ahead; tertiary: a year back and ten hours ahead.
    const offsets = '^SO2,1,2,0,0,0,0^SO3,0,0,-1,10,0,0';
    await samePixels(clock('%,{,#', '%d.%m {d.{m #y #H', offsets), text('07.03 09.04 25 01'));
  });

  it('leaves the data as written without ^FC, and an indicator before an unknown code', async () => {
    await samePixels(text('%Y'), text('%Y'));
    await differentPixels(clock('%', '%Y'), text('%Y'));
    expect(new TextDecoder().decode(formatClock(new TextEncoder().encode('%Q 100% %Y'), [0x25], [NOW]))).to.equal(
      '%Q 100% 2026',
    );
  });

  it('numbers the weeks as strftime does across the turn of the year', () => {
    // [date, %U, %W, %j, %w] (the guide numbers weekdays 00 to 06, Sunday 00).
    const cases: Array<[string, string]> = [
      ['2026-01-01', '00 00 001 04'],
      ['2026-01-04', '01 00 004 00'],
      ['2026-01-05', '01 01 005 01'],
      ['2024-12-31', '52 53 366 02'],
      ['2023-01-01', '01 00 001 00'],
    ];
    for (const [day, want] of cases) {
      const got = new TextDecoder().decode(
        formatClock(new TextEncoder().encode('%U %W %j %w'), [0x25], [new Date(`${day}T12:00:00Z`)]),
      );
      expect(got, day).to.equal(want);
    }
  });

  it("reads the router's clock for the request over HTTP", async () => {
    const { app } = await buildApp({ now: () => NOW });
    const res = await request(app)
      .post(labelsPath('8dpmm', '3x3', '0'))
      .set('X-API-Key', KEYS.all)
      .type('form')
      .buffer(true)
      .parse(binaryBody)
      .send(clock('%', '%Y-%m-%d'));
    expect(res.status).to.equal(200);
    const served = decodePng(res.body as Buffer),
      literal = await png(text('2026-03-07'));
    expect(Buffer.compare(Buffer.from(served.gray), Buffer.from(literal.gray))).to.equal(0);
  });
});

describe('legacy commands: ^FM multiple field origins', () => {
  const DATA = 'Zebra Technologies Corporation strives to be the expert supplier of innovative solutions. '.repeat(2);
  // Security 1, 5 columns x 10 rows: each symbol holds about 40 data codewords, so the data takes three symbols.
  const series = (origins: string, extra = '') => `^XA${extra}^BY2^FM${origins}^B7N,4,1,5,10,N^FD${DATA}^FS^XZ`;
  const SYMBOL = { w: 310, h: 45 };
  const at = (img: DecodedPng, x: number, y: number) => window(img, x, y, SYMBOL.w, SYMBOL.h);

  it('draws one symbol of the series at each origin, none at 0,0', async () => {
    const img = await png(series('10,10,10,200,10,400'), { heightIn: 4 });
    for (const y of [10, 200, 400])
      expect(ink(img, 10, y, SYMBOL.w, SYMBOL.h), `symbol at 10,${y}`).to.be.greaterThan(500);
    expect(ink(img, 0, 0, 10, 10)).to.equal(0);
    expect(await warnings(series('10,10,10,200,10,400'), { heightIn: 4 })).to.deep.equal([]);
  });

  it('puts symbol n at origin n: swapping two origins swaps the symbols', async () => {
    const a = await png(series('10,10,10,200,10,400'), { heightIn: 4 });
    const b = await png(series('10,200,10,10,10,400'), { heightIn: 4 });
    expect(at(a, 10, 10)).to.deep.equal(at(b, 10, 200));
    expect(at(a, 10, 200)).to.deep.equal(at(b, 10, 10));
    expect(at(a, 10, 10)).to.not.deep.equal(at(a, 10, 200));
  });

  it('leaves out a symbol whose origin is e, and applies the label home as ^FO does', async () => {
    const all = await png(series('10,10,10,200,10,400'), { heightIn: 4 });
    const without = await png(series('10,10,e,e,10,400'), { heightIn: 4 });
    expect(ink(without, 10, 200, SYMBOL.w, SYMBOL.h)).to.equal(0);
    expect(at(without, 10, 10)).to.deep.equal(at(all, 10, 10));
    expect(at(without, 10, 400)).to.deep.equal(at(all, 10, 400));
    await samePixels(series('30,30,30,220,30,420'), series('10,10,10,200,10,400', '^LH20,20'), { heightIn: 4 });
  });

  it('prints no symbol when there are fewer origins than symbols, and says so', async () => {
    const img = await png(series('10,10,10,200'), { heightIn: 4 });
    expect(ink(img)).to.equal(0);
    expect(await warnings(series('10,10,10,200'), { heightIn: 4 })).to.deep.equal([
      '^FM|The data needs more symbols than the 2 ^FM origins; none printed',
    ]);
  });

  it('places a MicroPDF417 series the same way', async () => {
    const micro = (origins: string) =>
      `^XA^BY2^FM${origins}^BFN,6,12^FD${'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.repeat(3)}^FS^XZ`;
    const a = await png(micro('10,10,300,10')),
      b = await png(micro('300,10,10,10'));
    const box = (img: DecodedPng, x: number) => window(img, x, 10, 120, 160);
    expect(ink(a, 10, 10, 120, 160)).to.be.greaterThan(500);
    expect(box(a, 10)).to.deep.equal(box(b, 300));
    expect(box(a, 300)).to.deep.equal(box(b, 10));
    expect(box(a, 10)).to.not.deep.equal(box(a, 300));
  });

  it('closes each segment with a Macro PDF417 control block, the last one with 922', () => {
    const data = new TextEncoder().encode('abcdefghij');
    // One codeword a byte; a symbol holds 8 codewords.
    const segments = macroSegments(
      data,
      (part) => [...part],
      (count) => count <= 8,
      60,
    )!;
    // Four bytes and a control block of 4 codewords, twice; the last two bytes and the last block (922 added).
    expect(segments).to.deep.equal([
      { data: [97, 98, 99, 100], control: controlBlock(0, false) },
      { data: [101, 102, 103, 104], control: controlBlock(1, false) },
      { data: [105, 106], control: controlBlock(2, true) },
    ]);
    // 928, the index 00002 as numeric compaction (100002 = 111 * 900 + 102), the file id, 922.
    expect(controlBlock(2, true)).to.deep.equal([928, 111, 102, 0, 922]);
    // Pad codewords go before the control block: a reader takes nothing after the 922.
    expect(paddedSegment(segments[2]!, 9)).to.deep.equal([105, 106, 900, 900, 928, 111, 102, 0, 922]);
  });

  it('reads back as the series: each symbol its segment of the data, its index, the last one marked last', async () => {
    const img = await png(series('10,10,10,200,10,400'), { heightIn: 4 });
    const read = [10, 200, 400].map((y) => readPdf417(img, 10, y, 310, 45));
    expect(read.map((r) => r.text).join('')).to.equal(DATA);
    expect(read.map((r) => [r.segment, r.last === true])).to.deep.equal([
      [0, false],
      [1, false],
      [2, true],
    ]);
  });

  it('is ignored by other fields, as the guide says', async () => {
    await samePixels('^XA^FM100,100^FO20,20^GB40,40,40^FS^XZ', '^XA^FO20,20^GB40,40,40^FS^XZ');
  });
});

describe('legacy commands: ^MC map clear', () => {
  const box = (x: number, extra = '') => `^XA${extra}^FO${x},20^GB40,40,40^FS^XZ`;

  it("^MCN keeps the label's image under the next labels until one with ^MCY has printed", async () => {
    const doc = box(10, '^MCN') + box(80, '^MCY') + box(150);
    await samePixels(doc, '^XA^FO10,20^GB40,40,40^FS^FO80,20^GB40,40,40^FS^XZ', { index: 1 });
    await samePixels(doc, box(150), { index: 2 });
    await samePixels(doc, box(10), { index: 0 });
  });

  it('keeps the image over several labels, each drawn over all before it', async () => {
    const doc = box(10, '^MCN') + box(80) + box(150);
    await samePixels(doc, '^XA^FO10,20^GB40,40,40^FS^FO80,20^GB40,40,40^FS^FO150,20^GB40,40,40^FS^XZ', { index: 2 });
  });

  it("draws reverse fields over the kept image as over the label's own", async () => {
    await samePixels(
      box(10, '^MCN') + '^XA^FO30,20^FR^GB40,40,40^FS^XZ',
      '^XA^FO10,20^GB40,40,40^FS^FO30,20^FR^GB40,40,40^FS^XZ',
      { index: 1 },
    );
  });

  it("gives the PDF pages and the preview's field boxes the kept image too", async function () {
    const doc = box(10, '^MCN') + box(80);
    const boxes = fieldBoxes(doc, { dpmm: 8, widthIn: 3, heightIn: 3, index: 1 });
    expect(boxes.elements.map((e) => [e.box.x, e.span.start])).to.deep.equal([
      [10, doc.indexOf('^FO10')],
      [80, doc.indexOf('^FO80')],
    ]);
    if (!hasPoppler()) this.skip();
    const pdf = await render(doc, { dpmm: 8, widthIn: 3, heightIn: 3, format: 'pdf' });
    const page2 = rasterisePdf(pdf.body, 609, 609, 2);
    const inkAt = (x: number, y: number) => page2.grey[y * page2.width + x]! < 128;
    expect([inkAt(30, 40), inkAt(100, 40), inkAt(170, 40)]).to.deep.equal([true, true, false]);
  });

  it("leaves ^FV fields out of the kept image: the guide's example prints #2 over the box and FIXED DATA alone", async () => {
    const box = '^FO20,20^GB400,200,4^FS';
    const fixed = '^FO40,120^A0N,30,30^FDFIXED DATA^FS';
    const variable = (n: number) => `^FO40,50^A0N,30,30^FVVARIABLE DATA #${n}^FS`;
    const doc = `^XA${box}${variable(1)}${fixed}^MCN^XZ^XA${variable(2)}^MCY^XZ`;
    await samePixels(doc, `^XA${box}${fixed}${variable(2)}^XZ`, { index: 1 });
    await differentPixels(doc, `^XA${box}${fixed}${variable(1)}${variable(2)}^XZ`, { index: 1 });
    await samePixels(doc, `^XA${box}${variable(1)}${fixed}^XZ`, { index: 0 });
  });

  it('keeps a field whose ^FV was replaced by ^FD, and drops one whose ^FD was replaced by ^FV', async () => {
    const doc = '^XA^MCN^FO20,20^A0N,30,30^FVA^FDB^FS^FO20,80^A0N,30,30^FDC^FVD^FS^XZ^XA^FO200,20^GB10,10,10^FS^XZ';
    await samePixels(doc, '^XA^FO20,20^A0N,30,30^FDB^FS^FO200,20^GB10,10,10^FS^XZ', { index: 1 });
  });

  it('^MCY, on every UPS label, changes nothing and warns nothing', async () => {
    await samePixels(box(10, '^MCY'), box(10));
    expect(await warnings(box(10, '^MCY') + box(80, '^MCN'))).to.deep.equal([]);
  });
});

describe('legacy commands: ^CI remapping pairs', () => {
  const field = (ci: string, data: string) => `^XA${ci}^FO20,20^A0N,40,40^FD${data}^FS^XZ`;

  it('prints character s when byte d is sent (^CI0,65,66: A for B)', async () => {
    await samePixels(field('^CI0,65,66', 'B'), field('^CI0', 'A'));
    await differentPixels(field('^CI0,65,66', 'B'), field('^CI0', 'B'));
    await samePixels(field('^CI0,65,66', 'ABBA'), field('^CI0', 'AAAA'));
  });

  it("prints the Euro for a dollar sign with the guide's ^CI0,21,36, as the Euro sent directly prints", async () => {
    await samePixels(field('^CI0,21,36', '$5'), field('^CI28', '€5'));
    await differentPixels(field('^CI0,21,36', '$5'), field('^CI0', '$5'));
  });

  it('drops the pairs with the next ^CI, never remaps the space, and warns about nothing', async () => {
    await samePixels(field('^CI0,65,66^CI0', 'B'), field('^CI0', 'B'));
    await samePixels(field('^CI0,66,32', 'A B'), field('^CI0', 'A B'));
    expect(await warnings(field('^CI0,65,66,67,68', 'BD'))).to.deep.equal([]);
  });

  it("accepts the GLS labels' ^CI28 pairs without a warning; the guide remaps sets 0-13 only", async () => {
    const gls = '^CI28,146,198,157,216,143,197,145,230,155,248,134,229';
    expect(await warnings(field(gls, 'Dæk'))).to.deep.equal([]);
    await samePixels(field(gls, 'Dæk'), field('^CI28', 'Dæk'));
  });
});

describe('legacy commands: ^A@ with a resident font file', () => {
  const named = (file: string, extra = '') => `^XA${extra}^FO20,20^A@N,36,20,${file}^FDHello 12^FS^XZ`;
  const font = (f: string) => `^XA^FO20,20^A${f}N,36,20^FDHello 12^FS^XZ`;

  it('draws the resident font the Z: file names, not font 0', async () => {
    await samePixels(named('Z:D.FNT'), font('D'));
    await samePixels(named('Z:B.FNT'), font('B'));
    await samePixels(named('Z:0.FNT'), font('0'));
    await differentPixels(named('Z:D.FNT'), font('0'));
  });

  it('falls back to the ^CF font, else font A, with a warning, for a font the printer does not have', async () => {
    await samePixels(named('E:NOPE.TTF'), font('A'));
    await samePixels(named('E:NOPE.TTF', '^CFD'), font('D'));
    expect(await warnings(named('E:NOPE.TTF'))).to.deep.equal(['^A|Font E:NOPE.TTF not found; used font A']);
    // The linter points at the name, the ^A's fifth parameter.
    const zpl = named('E:NOPE.TTF');
    const [w] = (await render(zpl, LABEL)).warnings;
    expect([w!.byteIndex, w!.byteSize, w!.param]).to.deep.equal([zpl.indexOf('E:NOPE'), 'E:NOPE.TTF'.length, 5]);
    expect(await warnings(named('Z:D.FNT'))).to.deep.equal([]);
  });
});

describe('legacy commands: accepted no-ops', () => {
  it('^JW, ~NR and ^LF change nothing and are not unknown', async () => {
    const plain = '^XA^FO20,20^GB40,40,40^FS^XZ';
    await samePixels('~NR^XA^JWH^LF^FO20,20^GB40,40,40^FS^XZ', plain);
    expect(await warnings('~NR^XA^JWH^LF^FO20,20^GB40,40,40^FS^XZ')).to.deep.equal([]);
  });
});

describe('linter: the legacy-supported commands of issue 44 are known', () => {
  it('gives none of them a warning in a label that uses each', async () => {
    const zpl =
      '~NR^XA^MCY^JWH^LF^CI0,65,66^SO2,0,1,0,0,0,0^FO10,10^A0N,20,20^FC%,{^FD%Y {d^FS' +
      '^FO10,40^A@N,20,20,Z:A.FNT^FDx^FS^BY2^FM10,80,200,80^B7N,4,1,5,10,N^FDabc^FS^MCN^XZ^XA^MCY^XZ';
    const r = await render(zpl, LABEL);
    expect(r.warnings.map((w) => `${w.command}|${w.message}`)).to.deep.equal([]);
    expect(r.unsupported).to.deep.equal([]);
  });
});
