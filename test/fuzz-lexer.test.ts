// Property tests of the lexer and interpreter on arbitrary bytes and mutated fixtures: they never throw,
// tokens tile the document in order with true byte offsets, and every diagnostic points inside the document.

import { expect } from 'chai';
import fc from 'fast-check';
import { RenderError } from '../renderer/errors.js';
import { interpret } from '../renderer/interpreter.js';
import { lex, type Token } from '../renderer/zpl/lexer.js';
import { craftedAttack, fuzzParams, loadFixtures, mutatedFixture } from './helpers/fuzz-cases.js';

/** Documents: raw bytes, ZPL-flavoured noise, and broken real labels. */
const zplAlphabet = fc.constantFrom(
  ...'^~,XAZFODSGBCYQ0123456789-.:_ \r\n'.split('').map((c) => c.charCodeAt(0)),
  0x00,
  0xff,
  0xc3,
);
const documents = fc.oneof(
  fc.uint8Array({ maxLength: 400 }),
  fc.array(zplAlphabet, { maxLength: 400 }).map((a) => Uint8Array.from(a)),
  mutatedFixture().map((c) => c.zpl),
  craftedAttack().map((c) => c.zpl),
);

/** Plain comparisons (chai per byte would dominate the run time); the first broken invariant throws. */
function invariant(ok: boolean, what: string): void {
  if (!ok) throw new Error(what);
}

function checkTokens(bytes: Uint8Array, tokens: Token[]): void {
  let prevEnd = 0;
  for (const t of tokens) {
    const where = `${t.prefix}${t.name} at ${t.start}`;
    invariant(t.start >= prevEnd, `${where} overlaps the previous token (ended at ${prevEnd})`);
    invariant(
      t.start <= t.paramStart && t.paramStart <= t.end && t.end <= bytes.length,
      `${where}: bad bounds ${t.paramStart}..${t.end}`,
    );
    invariant(t.raw.length === t.offsets.length, `${where}: ${t.raw.length} bytes but ${t.offsets.length} offsets`);
    invariant(t.name.length <= 2 && (t.stray === true || !/[a-z]/.test(t.name)), `${where}: bad name`);
    const low = t.stray ? t.start : t.paramStart;
    let last = -1;
    for (let k = 0; k < t.raw.length; k++) {
      const at = t.offsets[k];
      invariant(at > last && at >= low && at < t.end, `${where}: offset ${at} of byte ${k} out of order or range`);
      invariant(t.raw[k] === bytes[at], `${where}: byte ${k} is not the document's byte ${at}`);
      last = at;
    }
    prevEnd = t.end;
  }
}

describe('fuzz: lexer and interpreter', function () {
  this.timeout(120_000);

  it('lexes any bytes into ordered tokens whose offsets point at their own bytes', () => {
    fc.assert(
      fc.property(documents, (bytes) => checkTokens(bytes, lex(bytes))),
      fuzzParams(0x1e1, 400),
    );
  });

  it('lexes every fixture document the same way', () => {
    for (const f of loadFixtures()) checkTokens(f.zpl, lex(f.zpl));
  });

  it('cuts ^GF binary data by its byte count, whatever the count claims', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 500 }), fc.uint8Array({ maxLength: 200 }), (count, data) => {
        const head = Buffer.from(`^XA^GFB,${count},${count},1,`, 'latin1');
        const bytes = new Uint8Array(Buffer.concat([head, data, Buffer.from('^FS^XZ')]));
        const tokens = lex(bytes);
        checkTokens(bytes, tokens);
        const gf = tokens.find((t) => t.name === 'GF');
        expect(gf).to.not.equal(undefined);
        // A count the data honours swallows exactly that many bytes, prefixes included.
        if (count >= 0 && count <= data.length) expect(gf!.end).to.equal(head.length + count);
      }),
      fuzzParams(0x6f, 300),
    );
  });

  it('interprets any document without crashing (budgets are RenderErrors), every diagnostic inside the document', () => {
    fc.assert(
      fc.property(documents, fc.constantFrom(6, 8, 12, 24), (bytes, dpmm) => {
        let doc: ReturnType<typeof interpret>;
        try {
          doc = interpret(bytes, dpmm);
        } catch (err) {
          // Budgets (object sizes) fail the whole render on purpose; anything else is a bug.
          expect(err).to.be.instanceOf(RenderError);
          return;
        }
        expect(doc.totalCount).to.equal(doc.labels.reduce((s, l) => s + l.copies, 0));
        for (const d of doc.log.entries) {
          const ok =
            Number.isInteger(d.byteIndex) &&
            Number.isInteger(d.byteSize) &&
            d.byteIndex >= 0 &&
            d.byteSize >= 0 &&
            d.byteIndex + d.byteSize <= bytes.length &&
            typeof d.message === 'string' &&
            d.message !== '';
          invariant(ok, `diagnostic outside the ${bytes.length}-byte document: ${JSON.stringify(d)}`);
        }
      }),
      fuzzParams(0x1e2, 400),
    );
  });
});
