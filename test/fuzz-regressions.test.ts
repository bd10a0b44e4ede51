// Every crash or hang the fuzzers found, as a fixed case. Rendered through the pool so a regression
// fails on the time budget instead of hanging the run.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { interpret, MAX_REPLAYED_COMMANDS } from '../renderer/interpreter.js';
import { lex } from '../renderer/zpl/lexer.js';
import { decodePng } from './helpers/png.js';
import { fuzzPool } from './helpers/fuzz-pool.js';

const SMALL = { dpmm: 8, widthIn: 2, heightIn: 2, format: 'png', index: 0 } as const;

describe('fuzz regressions', function () {
  this.timeout(60_000);

  it('formats that recall each other (^DF/^XF) stop at the replay budget instead of growing exponentially', async () => {
    // Found by fuzz-render (crafted recursiveXf): 18^8 recalls within the depth limit hung the worker.
    const loop = '^XA^DFR:LOOP.ZPL^FS^FO10,10^GB30,30,2^FS' + '^XFR:LOOP.ZPL^FS'.repeat(18) + '^XZ';
    const result = await fuzzPool().render(`${loop}^XA^XFR:LOOP.ZPL^FS^XZ`, SMALL);
    expect(result.contentType).to.equal('image/png');
    const refused = result.warnings.filter((w) => w.message.includes(`exceed ${MAX_REPLAYED_COMMANDS} commands`));
    expect(refused.length).to.be.greaterThan(0);
    expect(refused[0].command).to.equal('^XF');
  });

  it('upper-cases only ASCII letters in command names: a latin1 ß is not the command SS', () => {
    // Found by fuzz-lexer: `~<0x8c><0xdf>` lexed as a three-letter name, `^ß` as ^SS.
    const bytes = Uint8Array.from([...Buffer.from('^XA^'), 0xdf, ...Buffer.from('^fo5,5^XZ')]);
    expect(lex(bytes).map((t) => t.name)).to.deep.equal(['XA', '\xdf', 'FO', 'XZ']);
    const doc = interpret(bytes, 8);
    expect(doc.log.entries.map((d) => d.message)).to.deep.include('Unknown command ^\xdf; ignored');
  });

  it('draws text in a broken downloaded font with the fallback font instead of dropping the field', async () => {
    // Found by fuzz-render (crafted hostileFont): fontkit reads tables lazily, so a truncated ~DY font
    // threw a TypeError on its first metric and the whole field went missing ("Field not drawn: ...").
    const font = readFileSync(fileURLToPath(import.meta.resolve('dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf'))).subarray(
      0,
      20_000,
    );
    const zpl = Buffer.concat([
      Buffer.from(`~DYR:BROKEN,B,T,${font.length},,`),
      font,
      Buffer.from('^XA^A@N,40,40,R:BROKEN.TTF^FO10,10^FDHello^FS^XZ'),
    ]);
    const result = await fuzzPool().render(zpl, SMALL);
    expect(result.warnings.map((w) => w.message).filter((m) => m.startsWith('Field not drawn'))).to.deep.equal([]);
    const png = decodePng(result.body);
    let ink = 0;
    for (let y = 10; y < 60; y++) for (let x = 10; x < 200; x++) if (png.gray[y * png.width + x] < 128) ink++;
    expect(ink, 'text drawn in the fallback font').to.be.greaterThan(100);
  });

  it('cuts binary ^GF data that happens to start with a colon by its byte count (only :Z64:/:B64: are text)', () => {
    // Found by fuzz-lexer: any leading `:` made the lexer read binary data as text up to the next caret.
    const data = Buffer.from([0x3a, 0x5e, 0x41, 0x7e, 0x10]); // ":^A~" and a byte: binary, not commands
    const bytes = Buffer.concat([Buffer.from('^XA^FO0,0^GFB,5,5,1,'), data, Buffer.from('^FS^XZ')]);
    expect(lex(bytes).map((t) => t.name)).to.deep.equal(['XA', 'FO', 'GF', 'FS', 'XZ']);
    const z64 = Buffer.from('^XA^GFA,8,8,1,:z64:eJxjYGBgAAAABAAB:a1b2^FS^XZ');
    expect(lex(z64).map((t) => t.name)).to.deep.equal(['XA', 'GF', 'FS', 'XZ']);
  });
});
