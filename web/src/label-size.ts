// The label's width and height in inches, millimetres or centimetres, as the legacy viewer offers them. The API takes
// inches: a length is kept as it was typed, in its own unit, and converted only when it is sent or shown in another
// unit, so 100 mm shown in inches and back is 100 mm again, and the request carries 100 / 25.4 in.

export type Unit = 'inches' | 'mm' | 'cm';

interface UnitSpec {
  /** How many of the unit make an inch. */
  perInch: number;
  symbol: string;
  /** Decimals shown for a length converted from another unit (the request keeps them all). */
  decimals: number;
  step: string;
}

export const UNITS: Readonly<Record<Unit, UnitSpec>> = {
  inches: { perInch: 1, symbol: 'in', decimals: 4, step: '0.1' },
  mm: { perInch: 25.4, symbol: 'mm', decimals: 2, step: '1' },
  cm: { perInch: 2.54, symbol: 'cm', decimals: 3, step: '0.1' },
};

export function isUnit(text: string): text is Unit {
  return Object.hasOwn(UNITS, text);
}

/** A decimal number as the API's path takes it: digits and one point, no sign, no exponent. */
export const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A length as typed: its text and the unit it was typed in. */
export interface Length {
  text: string;
  unit: Unit;
}

/** Rounded to 15 significant digits: what a division by 25.4 adds below them is floating-point noise. */
function clean(value: number): number {
  return Number(value.toPrecision(15));
}

/** The length in `unit`, undefined when its text is no number. */
export function valueIn(length: Length, unit: Unit): number | undefined {
  if (!DECIMAL.test(length.text)) return undefined;
  const value = Number(length.text);
  return unit === length.unit ? value : clean((value / UNITS[length.unit].perInch) * UNITS[unit].perInch);
}

/** Plain decimal text (never an exponent), at most `decimals` after the point, no trailing zeros. */
export function decimalText(value: number, decimals?: number): string {
  const rounded = decimals === undefined ? value : Number(value.toFixed(decimals));
  const text = String(rounded);
  if (!text.includes('e')) return text;
  return rounded.toFixed(Math.min(decimals ?? 20, 20)).replace(/\.?0+$/, '');
}

/** The text a field shows in `unit`: as typed in its own unit, rounded in another. */
export function shownText(length: Length, unit: Unit): string {
  if (unit === length.unit) return length.text;
  const value = valueIn(length, unit);
  return value === undefined ? '' : decimalText(value, UNITS[unit].decimals);
}

/** The text a link or a request carries in `unit`: as typed, or converted with every digit kept. */
export function exactText(length: Length, unit: Unit): string | undefined {
  if (unit === length.unit) return DECIMAL.test(length.text) ? length.text : undefined;
  const value = valueIn(length, unit);
  return value === undefined ? undefined : decimalText(value);
}

/** The API's bounds in inches (the server tells the page), shown in `unit`. */
export function boundsIn(inches: { min: number; max: number }, unit: Unit): { min: string; max: string } {
  const convert = (value: number): string => decimalText(clean(value * UNITS[unit].perInch));
  return { min: convert(inches.min), max: convert(inches.max) };
}
