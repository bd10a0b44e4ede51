// ^FB/^TB layout rules, checked on the layout functions with the monospaced font A (6-dot advance)
// and through render() with the PNG decoded.

import { expect } from 'chai';
import { render } from '../renderer/render.js';
import { layoutBlock, wrapParagraph, hardLineBytes } from '../renderer/text/block.js';
import { resolveFace } from '../renderer/fonts/resolve.js';
import { decodePng, type DecodedPng } from './helpers/png.js';

const fontA = resolveFace({ name: 'A', orientation: 'N', height: 9, width: 0 });
const block = (text: string, width: number, justify: 'L' | 'C' | 'R' | 'J' = 'L', hangingIndent = 0) =>
  layoutBlock(fontA, text.split('\\&'), { width, justify, hangingIndent });

async function renderLabel(zpl: string) {
  return render(zpl, { dpmm: 8, widthIn: 2, heightIn: 2, format: 'png', index: 0 });
}

/** Columns that hold ink (darker than mid-grey). */
function inkColumns(img: DecodedPng): number[] {
  const cols: number[] = [];
  for (let x = 0; x < img.width; x++) {
    for (let y = 0; y < img.height; y++)
      if (img.gray[y * img.width + x] < 128) {
        cols.push(x);
        break;
      }
  }
  return cols;
}

/** Rows that hold ink (darker than mid-grey). */
function inkRows(img: DecodedPng): number[] {
  const rows: number[] = [];
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++)
      if (img.gray[y * img.width + x] < 128) {
        rows.push(y);
        break;
      }
  }
  return rows;
}

describe('^FB field blocks', () => {
  it('wraps at spaces, filling each line up to the block width', () => {
    expect(block('AAA BBB CCC', 42).map((l) => l.text)).to.deep.equal(['AAA BBB', 'CCC']);
    expect(block('AAA BBB CCC', 41).map((l) => l.text)).to.deep.equal(['AAA', 'BBB', 'CCC']);
  });

  it('breaks lines at \\& and splits the field bytes before character-set decoding', () => {
    expect(block('AB\\&CD', 600).map((l) => l.text)).to.deep.equal(['AB', 'CD']);
    const parts = hardLineBytes(Uint8Array.from(Buffer.from('AB\\&CD', 'latin1')));
    expect(parts.map((p) => Buffer.from(p).toString('latin1'))).to.deep.equal(['AB', 'CD']);
  });

  it('breaks a word longer than the block by character', () => {
    expect(wrapParagraph(fontA, 'ABCDEFGH', 30)).to.deep.equal(['ABCDE', 'FGH']);
  });

  it('justifies L, C, R and J (J spreads the spaces on all but the last line)', () => {
    expect(block('AA', 60, 'L')[0].indent).to.equal(0);
    // C centres the line as if it ended with a space, unless \& ended it
    expect(block('AA', 60, 'C')[0].indent).to.equal(21);
    expect(block('AA\\&BB', 60, 'C').map((l) => l.indent)).to.deep.equal([24, 21]);
    expect(block('AA', 60, 'R')[0].indent).to.equal(48);
    const j = block('AA BB CC DD', 60, 'J');
    expect(j.map((l) => l.text)).to.deep.equal(['AA BB CC', 'DD']);
    expect(j[0].spaceStretch).to.equal(6); // 60 - 48 free dots over 2 spaces
    expect(j[1].spaceStretch).to.equal(0);
  });

  it('centres a C line on the whole dot nearest its exact centre, a tie to the left', () => {
    // Font 0's advances are fractions of a dot: "PRIORITY MAIL® " is 388.95 dots at ^A0N,65,55, so its centre in 808 is
    // 209.53 dots in; the legacy's line starts at 210 (usps_priority_mail), where centring the rounded width gave 209.
    const font0 = resolveFace({ name: '0', orientation: 'N', height: 65, width: 55 });
    expect(
      layoutBlock(font0, ['PRIORITY MAIL\u00ae'], { width: 808, justify: 'C', hangingIndent: 0 })[0].indent,
    ).to.equal(210);
    // Whole-dot advances: 61 - 18 leaves 43 dots, and the line starts 21 in, not 22.
    expect(block('AA', 61, 'C')[0].indent).to.equal(21);
  });

  it('indents every line after the first by the hanging indent', () => {
    const lines = block('AAA BBB CCC', 42, 'L', 12);
    expect(lines.map((l) => [l.text, l.indent])).to.deep.equal([
      ['AAA BBB', 0],
      ['CCC', 12],
    ]);
  });

  it('puts lines one cell apart plus the line spacing', async () => {
    const rows = inkRows(decodePng((await renderLabel('^XA^FO10,10^AAN,9^FB200,3,4^FDM\\&M\\&M^FS^XZ')).body));
    // three M's, 7 ink rows each, starting at 10, 23 and 36 (9-dot cell + 4 spacing)
    expect(rows).to.deep.equal([...[10, 23, 36].flatMap((y) => [0, 1, 2, 3, 4, 5, 6].map((k) => y + k))]);
  });

  it('overprints extra lines on the last one and logs an overflow diagnostic', async () => {
    const r = await renderLabel('^XA^FO10,10^AAN,9^FB200,2^FDM\\&M\\&M^FS^XZ');
    const rows = inkRows(decodePng(r.body));
    expect(rows[0]).to.equal(10);
    expect(rows[rows.length - 1]).to.equal(25); // second line: 19..25; the third lands on it
    const w = r.warnings.find((d) => d.command === '^FB');
    expect(w?.message).to.equal('Field data overflows the ^FB block (3 lines, max 2)');
  });

  it('turns an inverted block about its full width, a dot past where ^TB and a line turn', async () => {
    // Left-justified, so the inverted text ends at the block's far edge; font A's M is as wide as its cell.
    const fb = decodePng((await renderLabel('^XA^FO100,100^AAI,9,^FB60,1,0,L,0^FDMM^FS^XZ')).body);
    const tb = decodePng((await renderLabel('^XA^FO100,100^AAI,9,^TBI,60,9^FDMM^FS^XZ')).body);
    expect(inkColumns(fb).at(-1)).to.equal(inkColumns(tb).at(-1)! + 1);
    expect(inkColumns(fb)[0]).to.equal(inkColumns(tb)[0]! + 1);
  });

  it('anchors a ^FT block at the baseline of its last line', async () => {
    const rows = inkRows(decodePng((await renderLabel('^XA^FT10,100^AAN,9^FB200,2^FDM\\&M^FS^XZ')).body));
    expect(rows[rows.length - 1]).to.equal(99);
    expect(rows[0]).to.equal(84); // first line one 9-dot cell above: 93 - 9
  });
});

describe('^TB text blocks', () => {
  it('wraps to the width and drops lines past the height', async () => {
    const rows = inkRows(decodePng((await renderLabel('^XA^FO10,10^AAN,9^TBN,24,18^FDMMM MMM MMM^FS^XZ')).body));
    expect(rows[0]).to.equal(10);
    expect(rows[rows.length - 1]).to.equal(25); // two 9-dot lines fit in 18 dots
  });
});
