// X-Linter / X-Warnings end to end: exact header values, byte offsets included, for distinct faults.

import { expect } from 'chai';
import request from 'supertest';
import { buildApp, KEYS, labelsPath, binaryBody } from './helpers/http-app.js';
import type { Express } from 'express';
import { at } from './helpers/offsets.js';
import { loadCorpus, readCorpusFile } from '../bench/corpus.js';
import { decodePng } from './helpers/png.js';

/** CRC-16/XMODEM of an ASCII string, as 4 upper-case hex digits (the ^GF Z64 checksum). */
function crc16(s: string): string {
  let c = 0;
  for (const ch of Buffer.from(s, 'latin1')) {
    c ^= ch << 8;
    for (let i = 0; i < 8; i++) c = c & 0x8000 ? ((c << 1) ^ 0x1021) & 0xffff : (c << 1) & 0xffff;
  }
  return c.toString(16).toUpperCase().padStart(4, '0');
}

const Z64 = 'eJz7zwAAAgABAA=='; // zlib of the bytes FF 00

/** [fault, ZPL, expected X-Warnings entries] — each entry `{byteIndex}|{byteSize}|{command}|{param}|{message}`. */
const FAULTS: Array<[string, string, (z: string) => string[]]> = [
  ['unknown command', '^XA^QQ12^XZ', (z) => [`${at(z, '^QQ')}|5|^QQ||Unknown command ^QQ; ignored`]],
  [
    'value below minimum',
    '^XA^FO10,10^GB-5,10^FS^XZ',
    (z) => [`${at(z, '-5')}|2|^GB|1|Value -5 is less than minimum value 1; used 1 instead`],
  ],
  [
    'value above maximum',
    '^XA^FO10,10^GB10,40000^FS^XZ',
    (z) => [`${at(z, '40000')}|5|^GB|2|Value 40000 is greater than maximum value 32000; used 32000 instead`],
  ],
  [
    'non-numeric coordinate',
    '^XA^FOabc,10^GB10,10^FS^XZ',
    (z) => [`${at(z, 'abc')}|3|^FO|1|Invalid value abc; used 0 instead`],
  ],
  ['invalid colour', '^XA^FO1,1^GB10,10,1,Q^FS^XZ', (z) => [`${at(z, 'Q^')}|1|^GB|4|Invalid value Q; used B instead`]],
  ['invalid yes/no', '^XA^PMX^XZ', (z) => [`${at(z, 'X^')}|1|^PM|1|Invalid value X; used N instead`]],
  [
    'zero copies',
    '^XA^PQ0^XZ',
    (z) => [`${at(z, '0^XZ')}|1|^PQ|1|Value 0 is less than minimum value 1; used 1 instead`],
  ],
  [
    'code page out of range',
    '^XA^CI99^XZ',
    (z) => [`${at(z, '99')}|2|^CI|1|Value 99 is greater than maximum value 36; used 36 instead`],
  ],
  [
    'bar ratio out of range',
    '^XA^BY2,5.0,10^XZ',
    (z) => [`${at(z, '5.0')}|3|^BY|2|Value 5.0 is greater than maximum value 3; used 3 instead`],
  ],
  [
    'negative label home',
    '^XA^LH-5,0^XZ',
    (z) => [`${at(z, '-5')}|2|^LH|1|Value -5 is less than minimum value 0; used 0 instead`],
  ],
  ['stray text before ^XA', 'hello\n^XA^XZ', () => ['0|5|||Ignored unrecognized content']],
  [
    'text after a command without parameters',
    '^XA junk ^XZ',
    (z) => [`${at(z, 'junk')}|4|^XA||Ignored unrecognized content`],
  ],
  ['extra parameters', '^XA^PMY,7,8^XZ', (z) => [`${at(z, '7')}|3|^PM|2|Ignored extra parameters`]],
  ['missing ^XZ', '^XA^FO1,1^GB5,5^FS', () => ['0|0|||Missing ^XZ; label ended at end of input']],
  [
    'missing ^FS before the next field',
    '^XA^FO1,1^GB5,5^FO9,9^GB5,5^FS^XZ',
    (z) => [`${at(z, '^FO', 1)}|6|^FO||Missing ^FS; field ended by the next field origin`],
  ],
  ['missing ^FS at ^XZ', '^XA^FO1,1^GB5,5^XZ', (z) => [`${at(z, '^FO')}|0|^FS||Missing ^FS; field ended by ^XZ`]],
  ['format command outside a label', '^FO1,1^XA^XZ', () => ['0|6|^FO||Command ^FO outside ^XA...^XZ; ignored']],
  [
    'short graphic field payload',
    '^XA^FO10,10^GFA,4,4,1,FFFF^FS^XZ',
    (z) => [`${at(z, 'FFFF')}|4|^GF|5|Graphic data has 2 of 4 bytes; nothing drawn`],
  ],
  [
    'Z64 payload with a bad CRC',
    `^XA^FO10,10^GFA,2,2,1,:Z64:${Z64}:0000^FS^XZ`,
    (z) => [`${at(z, '0000')}|4|^GF|5|CRC 0000 does not match the data (expected ${crc16(Z64)})`],
  ],
  [
    'recalled graphic that does not exist',
    '^XA^FO10,10^XGR:NOPE.GRF,1,1^FS^XZ',
    (z) => [`${at(z, 'R:NOPE')}|14|^XG|1|Object R:NOPE.GRF not found; nothing drawn`],
  ],
  [
    'recalled format that does not exist',
    '^XA^XFR:NOPE.ZPL^FS^XZ',
    (z) => [`${at(z, 'R:NOPE')}|10|^XF|1|Format R:NOPE.ZPL not found; nothing recalled`],
  ],
  [
    'field placed outside the label',
    '^XA^FO5000,10^GB10,10,1^FS^XZ',
    (z) => [`${at(z, '^FO')}|0|||Field at 5000,10 is outside the 812x1218 label`],
  ],
  [
    'circle diameter out of range',
    '^XA^FO1,1^GC5000^FS^XZ',
    (z) => [`${at(z, '5000')}|4|^GC|1|Value 5000 is greater than maximum value 4095; used 4095 instead`],
  ],
  [
    'invalid diagonal lean',
    '^XA^FO1,1^GD50,50,3,B,X^FS^XZ',
    (z) => [`${at(z, 'X^')}|1|^GD|5|Invalid value X; used R instead`],
  ],
  [
    'invalid Code 128 mode',
    '^XA^FO10,10^BCN,50,Y,N,N,Q^FD123^FS^XZ',
    (z) => [`${at(z, 'Q^')}|1|^BC|6|Invalid value Q; used N instead`],
  ],
  [
    'PDF417 security level out of range',
    '^XA^FO10,10^B7N,5,9^FDhello^FS^XZ',
    (z) => [`${at(z, '9^')}|1|^B7|3|Value 9 is greater than maximum value 8; used 8 instead`],
  ],
  [
    'data a symbology cannot encode',
    '^XA^FO10,10^BEN,50,Y,N^FDABC^FS^XZ',
    (z) => [`${at(z, 'ABC')}|3|^BE||Field data cannot be encoded by EAN-13; nothing printed`],
  ],
  [
    'graphic download with a short payload',
    '~DGR:X.GRF,4,1,FF^XA^FO1,1^XGR:X.GRF,1,1^FS^XZ',
    (z) => [`${at(z, 'FF')}|2|~DG|4|Graphic data has 1 of 4 bytes; the rest is blank`],
  ],
];

describe('X-Linter / X-Warnings over HTTP', () => {
  let app: Express;
  before(async () => {
    ({ app } = await buildApp());
  });

  const post = (zpl: string, linter?: string) => {
    const r = request(app)
      .post(labelsPath('8dpmm', '4x6', '0'))
      .set('X-API-Key', KEYS.all)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .buffer(true)
      .parse(binaryBody);
    return (linter === undefined ? r : r.set('X-Linter', linter)).send(zpl);
  };

  expect(new Set(FAULTS.map((f) => f[0])).size).to.be.at.least(25);
  for (const [fault, zpl, expected] of FAULTS) {
    it(`reports ${fault} with its exact byte position`, async () => {
      const res = await post(zpl, 'On');
      expect(res.status).to.equal(200);
      expect(res.headers['x-warnings']).to.equal(expected(zpl).join('|'));
    });
  }

  // Observed on the legacy service: status 200 with the PNG, thickness first, then width, then height.
  it('answers ^GB0,0,0 with the legacy header byte for byte', async () => {
    const res = await post('^XA^FO50,50^GB0,0,0^FS^XZ', 'On');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('image/png');
    expect(res.headers['x-warnings']).to.equal(
      '18|1|^GB|3|Value 0 is less than minimum value 1; used 1 instead|' +
        '14|1|^GB|1|Value 0 is less than minimum value 1; used 1 instead|16|1|^GB|2|Value 0 is less than minimum value 1; used 1 instead',
    );
  });

  it('keeps a box side at least its thickness, as the legacy documentation example shows', async () => {
    const zpl = '^XA^FO50,50^GB200,1,3^FS^XZ';
    const res = await post(zpl, 'oN');
    expect(res.headers['x-warnings']).to.equal(
      `${at(zpl, '1,3')}|1|^GB|2|Value 1 is less than minimum value 3; used 3 instead`,
    );
  });

  it('checks ^MU lengths against ranges in dots: half an inch is a circle, half a millimetre a line', async () => {
    const inches = await post('^XA^MUI^FO0.1,0.1^GC0.5,0.01^FS^XZ', 'On');
    expect(inches.headers).to.not.have.property('x-warnings');
    const png = decodePng(inches.body as Buffer);
    const inked = [...png.gray.keys()].filter((i) => png.gray[i]! < 128).map((i) => i % png.width);
    expect(Math.max(...inked) - Math.min(...inked) + 1).to.be.within(100, 102); // 0.5 in at 203 dpi, not 3 in
    const mm = '^XA^MUM^FO1,1^GB10,0,0.5^FS^XZ';
    expect((await post(mm, 'On')).headers['x-warnings']).to.equal(
      `${at(mm, '0,0.5')}|1|^GB|2|Value 0 is less than minimum value 0.5; used 0.5 instead`,
    );
  });

  it('counts offsets in UTF-8 bytes', async () => {
    const zpl = '^XA^CI28^FO10,10^A0N,20,20^FDÄöü€^FS^FO50,50^GB0,0,0^FS^XZ';
    const res = await post(zpl, 'on');
    const first = (res.headers['x-warnings'] as string).split('|').slice(0, 5);
    expect(first).to.deep.equal([
      String(Buffer.byteLength(zpl.slice(0, zpl.indexOf('0^FS', zpl.indexOf('^GB'))))),
      '1',
      '^GB',
      '3',
      'Value 0 is less than minimum value 1; used 1 instead',
    ]);
    expect(Number(first[0])).to.equal(zpl.indexOf('0^FS', zpl.indexOf('^GB')) + 5); // Ä ö ü take one byte more each, € two
  });

  it('reports at most 20 warnings, the first 20 in evaluation order', async () => {
    const zpl = '^XA' + Array.from({ length: 25 }, (_, i) => `^Q${String.fromCharCode(65 + i)}`).join('') + '^XZ';
    const res = await post(zpl, 'on');
    const entries = (res.headers['x-warnings'] as string).split('|');
    expect(entries).to.have.length(20 * 5);
    expect(entries.slice(0, 5)).to.deep.equal(['3', '3', '^QA', '', 'Unknown command ^QA; ignored']);
    expect(entries.slice(95, 100)).to.deep.equal([String(3 + 19 * 3), '3', '^QT', '', 'Unknown command ^QT; ignored']);
  });

  it('sends no X-Warnings when the linter is off, absent or the label is clean', async () => {
    const faulty = '^XA^QQ^XZ';
    expect((await post(faulty)).headers).to.not.have.property('x-warnings');
    expect((await post(faulty, 'Off')).headers).to.not.have.property('x-warnings');
    const clean = await post('^XA^FO10,10^GB100,100,3^FS^XZ', 'ON');
    expect(clean.status).to.equal(200);
    expect(clean.headers).to.not.have.property('x-warnings');
  });

  it('never changes the picture: the same bytes with the linter on and off', async () => {
    const zpl = '^XA^FO10,10^GB-5,40000,3^FS^QQ^FO20,20^BCN,50,Y,N,N,Q^FD123^FS^XZ';
    const on = await post(zpl, 'On');
    const off = await post(zpl, 'Off');
    expect(on.headers['x-warnings']).to.be.a('string');
    expect(Buffer.compare(on.body as Buffer, off.body as Buffer)).to.equal(0);
  });
});

describe('X-Linter over every corpus document', function () {
  this.timeout(180_000);
  let app: Express;
  // No organization ceiling: this test sends 1,200 requests back to back.
  before(async () => {
    ({ app } = await buildApp({ organizationRequestsPerSecond: 0 }));
  });

  it('renders every corpus document with the same bytes with the linter on as off', async () => {
    const corpus = loadCorpus();
    let compared = 0;
    for (const c of corpus.cases) {
      const zpl = readCorpusFile(corpus, c.zpl);
      const send = (linter: string) =>
        request(app)
          .post(labelsPath(`${c.dpmm}dpmm`, `${c.widthIn}x${c.heightIn}`, String(c.index ?? 0)))
          .set('X-API-Key', KEYS.all)
          .set('X-Linter', linter)
          .set('Content-Type', 'application/x-www-form-urlencoded')
          .buffer(true)
          .parse(binaryBody)
          .send(zpl);
      const [on, off] = [await send('On'), await send('Off')];
      expect(on.status, c.zpl).to.equal(off.status);
      expect(Buffer.compare(on.body as Buffer, off.body as Buffer), c.zpl).to.equal(0);
      expect(off.headers, c.zpl).to.not.have.property('x-warnings');
      compared++;
    }
    expect(compared).to.equal(corpus.cases.length).and.to.be.greaterThan(500);
  });
});
