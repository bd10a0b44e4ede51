// The font 0 model's bands as tools/font0-model/fit.ts writes them: each band's own fits, then stem weights carried
// to glyphs the band has no case of (from the same glyph in another band, else from its family in the band).

import { decomposedBase } from '../../renderer/fonts/font0.js';
import type { Font0Band } from '../../renderer/fonts/font0-model.js';
import { asModel, r4, type Units } from './search.js';

export interface BandFit {
  top: number;
  /** The band's rule (weights and offset) and each glyph's own fit where it beat the rule. */
  rule: Units;
  glyphs: Map<number, Units>;
}

export function asBand(f: BandFit): Font0Band {
  return {
    maxHeight: f.top,
    fallback: asModel(f.rule),
    glyphs: Object.fromEntries([...f.glyphs].map(([cp, u]) => [cp, asModel(u)])),
  };
}

/** The letter an accented letter is built on (É -> E), or null. */
function baseLetter(cp: number): number | null {
  const base = decomposedBase(cp);
  return base !== null && /\p{L}/u.test(String.fromCodePoint(base)) ? base : null;
}

function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/**
 * Stem weights carry over to glyphs a band has no case of (in units of the height, as differences from the band's
 * rule; offsets and advances do not: they are where one size's pixel grid fell):
 * - from the same glyph in the nearest band that has it: 0, 5, A, M and W, fitted at 20, 30, 50 and 80 dots,
 *   differ from their bands' rules alike;
 * - else from the letters of its family that the band fitted itself (E, É, È, Ê, Ë: the same stems, accents aside),
 *   their median. Members carried in from other bands do not count: É, È, Ê and Ë fitted at 50 dots made E's stem
 *   6 dots at 28, where the legacy's is 5 (test/legacy-rules.test.ts, text_fo_n).
 */
export function withTransfers(fits: readonly BandFit[], cps: readonly number[]): Font0Band[] {
  const families = (glyphs: ReadonlyMap<number, Units>): Map<number, Units[]> => {
    const out = new Map<number, Units[]>();
    for (const [cp, u] of glyphs) {
      const family = baseLetter(cp) ?? cp;
      out.set(family, [...(out.get(family) ?? []), u]);
    }
    return out;
  };
  return fits.map((f, i) => {
    const glyphs = new Map(f.glyphs);
    const set = (cp: number, wx: number, wy: number): void => {
      if (wx !== f.rule.wx || wy !== f.rule.wy) glyphs.set(cp, { ...f.rule, wx: r4(wx), wy: r4(wy), adv: 0 });
    };
    const others = fits
      .map((o, j) => ({ o, d: Math.abs(i - j) }))
      .filter((x) => x.d > 0)
      .sort((a, b) => a.d - b.d);
    for (const { o } of others) {
      for (const [cp, u] of o.glyphs)
        if (!glyphs.has(cp)) set(cp, f.rule.wx + u.wx - o.rule.wx, f.rule.wy + u.wy - o.rule.wy);
    }
    const family = families(f.glyphs);
    for (const cp of cps) {
      const members = family.get(baseLetter(cp) ?? cp);
      if (glyphs.has(cp) || !members) continue;
      set(cp, median(members.map((u) => u.wx)), median(members.map((u) => u.wy)));
    }
    return asBand({ ...f, glyphs });
  });
}
