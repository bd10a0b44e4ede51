// ^SN / ^SF serialisation: the data a field prints on copy `copy` (0-based) of a ^PQ run.
// The layout hands each drawer its copy's own data (`fieldData(field, copy)`), so no drawer reads `field.serial`.

import type { Field } from './model.js';

/**
 * The field data bytes for one copy: `field.data` itself when the field is not serialised,
 * otherwise the data advanced `copy` times by its ^SN increment or ^SF mask.
 */
export function fieldData(field: Field, copy: number): Uint8Array | undefined {
  const data = field.data;
  if (!data || !field.serial || (copy === 0 && field.serial.mask === undefined && field.serial.leadingZeros))
    return data;
  const s = field.serial;
  const text = latin1(data);
  const out =
    s.mask !== undefined
      ? advanceMasked(text, s.mask, s.maskIncrement ?? '1', copy)
      : advanceNumber(text, Number.parseInt(s.increment, 10) || 0, copy, s.leadingZeros);
  return bytes(out);
}

/** ^SN: the rightmost run of digits counts by `step` per copy; without leading zeros they print as spaces. */
export function advanceNumber(text: string, step: number, copy: number, leadingZeros: boolean): string {
  const m = /(\d+)(?!.*\d)/s.exec(text);
  if (!m) return text;
  const digits = m[1];
  const width = digits.length;
  let value = BigInt(digits) + BigInt(step) * BigInt(copy);
  const modulus = 10n ** BigInt(width);
  // The counter wraps within its field width, as a printer's counter does.
  value = ((value % modulus) + modulus) % modulus;
  let next = value.toString().padStart(width, '0');
  if (!leadingZeros) next = next.replace(/^0+(?=\d)/, (z) => ' '.repeat(z.length));
  return text.slice(0, m.index) + next + text.slice(m.index + width);
}

/** Mask character -> the alphabet its position counts through (^SF). */
const MASK_ALPHABETS: Record<string, string> = {
  D: '0123456789',
  H: '0123456789ABCDEF',
  O: '01234567',
  A: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
  N: '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ',
};

/**
 * ^SF: the mask is right-aligned with the data; each masked position is a digit of a mixed-radix
 * counter (`%` positions are skipped), and the increment string (same alphabets) is added per copy.
 */
export function advanceMasked(text: string, mask: string, increment: string, copy: number): string {
  if (copy === 0 || mask.length === 0) return text;
  const chars = text.split('');
  const offset = chars.length - mask.length;
  // Positions of the counter, least significant first, with their alphabet and case.
  const places: { at: number; alphabet: string; lower: boolean }[] = [];
  for (let k = mask.length - 1; k >= 0; k--) {
    const at = offset + k;
    const alphabet = MASK_ALPHABETS[mask[k].toUpperCase()];
    if (!alphabet || at < 0) continue;
    places.push({ at, alphabet, lower: mask[k] !== mask[k].toUpperCase() });
  }
  // The increment string is right-aligned to the mask too, read digit by digit in each place's alphabet.
  const incOffset = mask.length - increment.length;
  let carry = 0;
  for (const p of places) {
    const maskIndex = p.at - offset;
    const incChar = increment[maskIndex - incOffset];
    // Digits count by their value in every place; letters by their position in the place's alphabet.
    const inc =
      incChar === undefined
        ? 0
        : /\d/.test(incChar)
          ? Number(incChar)
          : Math.max(0, p.alphabet.indexOf(incChar.toUpperCase()));
    const cur = Math.max(0, p.alphabet.indexOf(chars[p.at].toUpperCase()));
    const sum = cur + inc * copy + carry;
    const radix = p.alphabet.length;
    const digit = sum % radix;
    carry = Math.floor(sum / radix);
    const c = p.alphabet[digit];
    chars[p.at] = p.lower ? c.toLowerCase() : c;
  }
  return chars.join('');
}

function latin1(b: Uint8Array): string {
  let s = '';
  for (const c of b) s += String.fromCharCode(c);
  return s;
}

function bytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}
