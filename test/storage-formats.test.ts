// Stored formats (^DF/^XF with ^FN variables) and serialisation (^SN/^SF across ^PQ copies), through render().
// A recalled or serialised label must be pixel for pixel the label written out by hand.

import { expect } from 'chai';
import { render } from '../renderer/render.js';
import type { RenderResult } from '../renderer/api.js';
import { decodePng, inkCount, px, type DecodedPng } from './helpers/png.js';

async function renderAt(zpl: string, index: number): Promise<RenderResult> {
  return render(zpl, { dpmm: 8, widthIn: 3, heightIn: 2, format: 'png', index });
}

async function image(zpl: string, index = 0): Promise<DecodedPng> {
  return decodePng((await renderAt(zpl, index)).body);
}

function samePixels(a: DecodedPng, b: DecodedPng): boolean {
  return a.width === b.width && a.height === b.height && a.gray.every((v, i) => v === b.gray[i]);
}

const template =
  '^XA^DFR:SHIP.ZPL^FS' +
  '^FO10,10^GB400,200,3^FS' +
  '^FO20,20^A0N,40,40^FN1^FS' +
  '^FO20,80^A0N,30,30^FN2"Town"^FDnowhere^FS' +
  '^XZ';

const recall = (name: string, town?: string) =>
  `^XA^XFR:SHIP.ZPL^FS^FN1^FD${name}^FS${town === undefined ? '' : `^FN2^FD${town}^FS`}^XZ`;

const byHand = (name: string, town: string) =>
  `^XA^FO10,10^GB400,200,3^FS^FO20,20^A0N,40,40^FD${name}^FS^FO20,80^A0N,30,30^FD${town}^FS^XZ`;

describe('stored formats', () => {
  it('recalls one template three times with different ^FN data', async () => {
    const doc = template + recall('ALICE', 'PARIS') + recall('BOB', 'OSLO') + recall('CAROL');
    const r = await renderAt(doc, 0);
    expect(r.totalCount).to.equal(3); // the ^DF label itself prints nothing
    const labels = [await image(doc, 0), await image(doc, 1), await image(doc, 2)];
    const expected = [
      await image(byHand('ALICE', 'PARIS')),
      await image(byHand('BOB', 'OSLO')),
      await image(byHand('CAROL', 'nowhere')),
    ];
    for (let i = 0; i < 3; i++) {
      expect(samePixels(labels[i], expected[i]), `label ${i}`).to.equal(true);
      expect(px(labels[i], 10, 10)).to.equal(0); // the template's box
      expect(inkCount(labels[i])).to.be.greaterThan(inkCount(await image('^XA^FO10,10^GB400,200,3^FS^XZ')));
    }
    expect(samePixels(labels[0], labels[1])).to.equal(false);
  });

  it('takes ^FN data given before the ^XF that recalls the format', async () => {
    const doc = template + '^XA^FN1^FDEVE^FS^FN2^FDLIMA^FS^XFR:SHIP.ZPL^FS^XZ';
    expect(samePixels(await image(doc), await image(byHand('EVE', 'LIMA')))).to.equal(true);
  });

  it('reports a recalled format that does not exist', async () => {
    const zpl = '^XA^XFR:NONE.ZPL^FS^XZ';
    const r = await renderAt(zpl, 0);
    expect(r.warnings.map((w) => [w.command, w.byteIndex])).to.deep.equal([['^XF', zpl.indexOf('R:NONE')]]);
  });

  it('finds a format stored on E: when recalled without a drive', async () => {
    const doc = template.replace('R:SHIP', 'E:SHIP') + recall('DAVE', 'ROME').replace('R:SHIP', 'SHIP');
    expect(samePixels(await image(doc), await image(byHand('DAVE', 'ROME')))).to.equal(true);
  });
});

describe('serialisation across copies', () => {
  it('^SN counts up on each ^PQ copy', async () => {
    const doc = '^XA^FO20,20^A0N,40,40^SN007,1,Y^FS^PQ3^XZ';
    expect((await renderAt(doc, 0)).totalCount).to.equal(3);
    for (let i = 0; i < 3; i++) {
      const got = await image(doc, i);
      const want = await image(`^XA^FO20,20^A0N,40,40^FD00${7 + i}^FS^XZ`);
      expect(inkCount(want)).to.be.greaterThan(0);
      expect(samePixels(got, want), `copy ${i}`).to.equal(true);
    }
  });

  it('^SN counts down and prints leading zeros as spaces when told not to keep them', async () => {
    const doc = '^XA^FO20,20^A0N,40,40^SNA010,-5,N^FS^PQ3^XZ';
    const expected = ['A 10', 'A  5', 'A  0'];
    for (let i = 0; i < 3; i++) {
      expect(
        samePixels(await image(doc, i), await image(`^XA^FO20,20^A0N,40,40^FD${expected[i]}^FS^XZ`)),
        `copy ${i}`,
      ).to.equal(true);
    }
  });

  it('^SF increments field data through its mask, carrying between places', async () => {
    const doc = '^XA^FO20,20^A0N,40,40^FDAB9Z^SF%%DA,1^FS^PQ3^XZ';
    // Z + 1 wraps to A and carries into the decimal place (9 + 1 -> 0); the carry stops at the `%` places.
    const expected = ['AB9Z', 'AB0A', 'AB0B'];
    for (let i = 0; i < 3; i++) {
      expect(
        samePixels(await image(doc, i), await image(`^XA^FO20,20^A0N,40,40^FD${expected[i]}^FS^XZ`)),
        `copy ${i}`,
      ).to.equal(true);
    }
  });
});
