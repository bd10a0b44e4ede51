import { expect } from 'chai';
import { withTransfers, type BandFit } from '../tools/font0-model/transfers.js';
import { ZERO, type Units } from '../tools/font0-model/search.js';

const units = (u: Partial<Units>): Units => ({ ...ZERO, ...u });
const O = 0x4f,
  O_GRAVE = 0xd2,
  O_ACUTE = 0xd3,
  O_DIAERESIS = 0xd6,
  E = 0x45;

describe('font 0 model: weights carried to glyphs a band has no case of (tools/font0-model/transfers)', () => {
  // Accented Os fitted at 50 dots only; the band of 20 dots has a rule of its own and fits nothing of that family.
  const small: BandFit = {
    top: 25,
    rule: units({ wx: 0.01 }),
    glyphs: new Map([[E, units({ wx: 0.02, adv: 0.005 })]]),
  };
  const large: BandFit = {
    top: 65,
    rule: units({}),
    glyphs: new Map([
      [O_GRAVE, units({ wx: 0.012, wy: -0.004, dx: 0.001 })],
      [O_ACUTE, units({ wx: 0.012, wy: -0.015 })],
      [O_DIAERESIS, units({ wx: 0.004, wy: -0.006 })],
    ]),
  };
  const [atSmall, atLarge] = withTransfers([small, large], [E, O, O_GRAVE, O_ACUTE, O_DIAERESIS]);

  it("carries a glyph from another band as its difference from that band's rule, without offsets or advance", () => {
    expect(atSmall!.glyphs[O_GRAVE]).to.deep.equal([0.022, -0.004, 0, 0]);
    expect(atLarge!.glyphs[E]).to.deep.equal([0.01, 0, 0, 0]);
  });

  it('gives a glyph of no band the median weights of the family the band fitted itself, not of members carried in', () => {
    expect(atLarge!.glyphs[O]).to.deep.equal([0.012, -0.006, 0, 0]);
    // The 20-dot band fitted no O of its own: the three carried from 50 dots do not make it a family there (counted,
    // they made E's stem at 28 dots a dot heavier than the legacy's).
    expect(atSmall!.glyphs[O]).to.equal(undefined);
  });

  it("keeps a band's own fits as they were", () => {
    expect(atSmall!.glyphs[E]).to.deep.equal([0.02, 0, 0, 0, 0.005]);
    expect(atLarge!.glyphs[O_GRAVE]).to.deep.equal([0.012, -0.004, 0.001, 0]);
  });
});
