// Check characters the printer adds itself (bwip-js gets the full text so the bars and the line agree).

const CODE39_SET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-. $/+%';

/** Code 39 mod-43 check character. */
export function code39Check(data: string): string {
  let sum = 0;
  for (const c of data) sum += CODE39_SET.indexOf(c);
  return CODE39_SET[sum % 43];
}

/** Code 11 check characters: C (weights 1..10), then K (weights 1..9) when `two`. */
export function code11Checks(data: string, two: boolean): string {
  const value = (c: string) => (c === '-' ? 10 : c.charCodeAt(0) - 48);
  const sym = (v: number) => (v === 10 ? '-' : String(v));
  const weighted = (s: string, max: number) => {
    let sum = 0;
    for (let i = s.length - 1, w = 1; i >= 0; i--, w = w === max ? 1 : w + 1) sum += value(s[i]) * w;
    return sum % 11;
  };
  const c = sym(weighted(data, 10));
  return two ? c + sym(weighted(data + c, 9)) : c;
}

/** Luhn-style mod-10 check used by MSI. */
export function msiMod10(data: string): string {
  let sum = 0;
  for (let i = data.length - 1, dbl = true; i >= 0; i--, dbl = !dbl) {
    let d = (data.charCodeAt(i) - 48) * (dbl ? 2 : 1);
    if (d > 9) d -= 9;
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/** MSI mod-11 check (weights 2..7 from the right); 10 is written as "10". */
export function msiMod11(data: string): string {
  let sum = 0;
  for (let i = data.length - 1, w = 2; i >= 0; i--, w = w === 7 ? 2 : w + 1) sum += (data.charCodeAt(i) - 48) * w;
  const c = (11 - (sum % 11)) % 11;
  return String(c);
}

/** Interleaved 2 of 5 mod-10 check (weights 3,1 from the right). */
export function mod10Weighted31(digits: string): string {
  let sum = 0;
  for (let i = digits.length - 1, w = 3; i >= 0; i--, w = 4 - w) sum += (digits.charCodeAt(i) - 48) * w;
  return String((10 - (sum % 10)) % 10);
}

/** Code 93 check characters C and K for data within its 43 basic characters (else empty). */
export function code93Checks(data: string): string {
  if ([...data].some((c) => !CODE39_SET.includes(c))) return '';
  const weighted = (values: number[], max: number) => {
    let sum = 0;
    for (let i = values.length - 1, w = 1; i >= 0; i--, w = w === max ? 1 : w + 1) sum += values[i] * w;
    return sum % 47;
  };
  const values = [...data].map((c) => CODE39_SET.indexOf(c));
  const c = weighted(values, 20);
  const k = weighted([...values, c], 15);
  // values 43..46 are the shift characters, which have no printable form
  return c < 43 && k < 43 ? CODE39_SET[c] + CODE39_SET[k] : '';
}

export { CODE39_SET };
