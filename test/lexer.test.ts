import { expect } from 'chai';
import { lex } from '../renderer/zpl/lexer.js';
import { DiagnosticLog } from '../renderer/diagnostics.js';
import { latin1, readParams, splitParams } from '../renderer/zpl/params.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('lexer', () => {
  it('splits commands with names, byte offsets and parameters', () => {
    const toks = lex(bytes('^XA\n^FO10,20^FDHello^FS\n^XZ'));
    expect(toks.map((t) => t.prefix + t.name)).to.deep.equal(['^XA', '^FO', '^FD', '^FS', '^XZ']);
    const fo = toks[1];
    expect(fo.start).to.equal(4);
    expect(latin1(fo.raw)).to.equal('10,20');
    expect(fo.paramStart).to.equal(7);
    expect(latin1(toks[2].raw)).to.equal('Hello');
  });

  it('reads ^A as a font command whose first byte is the font name', () => {
    const toks = lex(bytes('^A0N,30,20^ADR^A@N,50,50,E:ARIAL.TTF'));
    expect(toks.map((t) => t.name)).to.deep.equal(['A', 'A', 'A']);
    expect(latin1(toks[0].raw)).to.equal('0N,30,20');
    expect(latin1(toks[2].raw)).to.equal('@N,50,50,E:ARIAL.TTF');
  });

  it('drops line breaks inside parameters but keeps the byte offsets of what remains', () => {
    const toks = lex(bytes('^FDab\r\ncd^FS'));
    expect(latin1(toks[0].raw)).to.equal('abcd');
    expect(Array.from(toks[0].offsets)).to.deep.equal([3, 4, 7, 8]);
  });

  it('follows ^CC and ~CT prefix changes', () => {
    const toks = lex(bytes('^CC+\n+FO1,2+FDx^y+FS~CT#\n#JA'));
    expect(toks.map((t) => t.prefix + t.name)).to.deep.equal(['^CC', '^FO', '^FD', '^FS', '~CT', '~JA']);
    expect(latin1(toks[2].raw)).to.equal('x^y');
  });

  it('cuts a binary ^GF payload by its byte count even when it contains carets', () => {
    const doc = new Uint8Array([...bytes('^GFB,2,2,1,'), 0x5e, 0x7e, ...bytes('^FS')]);
    const toks = lex(doc);
    expect(toks.map((t) => t.name)).to.deep.equal(['GF', 'FS']);
    expect(Array.from(toks[0].raw.slice(-2))).to.deep.equal([0x5e, 0x7e]);
  });

  it('keeps stray text outside commands as a stray token with its position', () => {
    const toks = lex(bytes('  junk here\n^XA^XZ'));
    expect(toks[0]).to.include({ stray: true, start: 2, end: 11, name: '' });
    expect(toks.slice(1).map((t) => t.name)).to.deep.equal(['XA', 'XZ']);
  });
});

describe('parameter tables', () => {
  it('clamps out-of-range values and logs the legacy messages with byte positions', () => {
    const log = new DiagnosticLog();
    const [tok] = lex(bytes('^GB-5,99999'));
    const specs = [
      { name: 'w', kind: 'int', min: 0, max: 32000 },
      { name: 'h', kind: 'int', min: 0, max: 32000 },
    ] as const;
    const v = readParams('^GB', splitParams(tok), specs, log);
    expect(v).to.deep.equal([0, 32000]);
    expect(log.entries.map((d) => [d.byteIndex, d.byteSize, d.param, d.message])).to.deep.equal([
      [3, 2, 1, 'Value -5 is less than minimum value 0; used 0 instead'],
      [6, 5, 2, 'Value 99999 is greater than maximum value 32000; used 32000 instead'],
    ]);
  });

  it('skips leading junk before a number, as printers do, and says so', () => {
    const log = new DiagnosticLog();
    const [tok] = lex(bytes('^FOB50,x'));
    const v = readParams(
      '^FO',
      splitParams(tok),
      [
        { name: 'x', kind: 'float', def: 0 },
        { name: 'y', kind: 'int', def: 0 },
      ],
      log,
    );
    expect(v).to.deep.equal([50, 0]);
    expect(log.entries.map((d) => d.message)).to.deep.equal([
      'Invalid value B50; used 50 instead',
      'Invalid value x; used 0 instead',
    ]);
  });

  it('uses defaults for empty parameters and for values of the wrong kind', () => {
    const log = new DiagnosticLog();
    const [tok] = lex(bytes('^XX,abc,Q'));
    const v = readParams(
      '^XX',
      splitParams(tok),
      [
        { name: 'a', kind: 'int', def: 7 },
        { name: 'b', kind: 'int', def: 3 },
        { name: 'c', kind: 'enum', values: ['N', 'R'], def: 'N' },
      ],
      log,
    );
    expect(v).to.deep.equal([7, 3, 'N']);
    expect(log.entries.map((d) => d.message)).to.deep.equal([
      'Invalid value abc; used 3 instead',
      'Invalid value Q; used N instead',
    ]);
  });
});
