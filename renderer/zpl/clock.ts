// Real-time clock fields (^FC): the clock codes of the ZPL II guide's Real Time Clock table, each written after a
// clock indicator character (% by default) and replaced by the clock's reading. The clock runs in UTC.

/** ^SO: how far a secondary or tertiary clock is set from the primary one. */
export interface ClockOffset {
  months: number;
  days: number;
  years: number;
  hours: number;
  minutes: number;
  seconds: number;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAY_MS = 86_400_000;

const pad = (v: number, width = 2): string => String(v).padStart(width, '0');

/** Days since 1 January of the date's year (0 on 1 January). */
function dayOfYear(t: Date): number {
  return Math.floor(
    (Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()) - Date.UTC(t.getUTCFullYear(), 0, 1)) / DAY_MS,
  );
}

/** Week of the year whose weeks start on `firstDay` (0 Sunday, 1 Monday): days before the first such day are week 0. */
function weekOfYear(t: Date, firstDay: number): number {
  return Math.floor((dayOfYear(t) + 7 - ((t.getUTCDay() - firstDay + 7) % 7)) / 7);
}

/** The code letters of the guide's table and what each prints. */
const CODES: Readonly<Record<string, (t: Date) => string>> = {
  a: (t) => WEEKDAYS[t.getUTCDay()].slice(0, 3),
  A: (t) => WEEKDAYS[t.getUTCDay()],
  b: (t) => MONTHS[t.getUTCMonth()].slice(0, 3),
  B: (t) => MONTHS[t.getUTCMonth()],
  d: (t) => pad(t.getUTCDate()),
  H: (t) => pad(t.getUTCHours()),
  I: (t) => pad(((t.getUTCHours() + 11) % 12) + 1),
  j: (t) => pad(dayOfYear(t) + 1, 3),
  m: (t) => pad(t.getUTCMonth() + 1),
  M: (t) => pad(t.getUTCMinutes()),
  p: (t) => (t.getUTCHours() < 12 ? 'AM' : 'PM'),
  S: (t) => pad(t.getUTCSeconds()),
  U: (t) => pad(weekOfYear(t, 0)),
  W: (t) => pad(weekOfYear(t, 1)),
  // The guide numbers the weekdays 00 to 06, Sunday 00.
  w: (t) => pad(t.getUTCDay()),
  y: (t) => pad(t.getUTCFullYear() % 100),
  Y: (t) => String(t.getUTCFullYear()),
};

/** The time a clock set `offset` from `now` reads. */
export function offsetClock(now: Date, offset: ClockOffset | undefined): Date {
  if (!offset) return now;
  const t = new Date(now.getTime());
  t.setUTCFullYear(t.getUTCFullYear() + offset.years, t.getUTCMonth() + offset.months, t.getUTCDate() + offset.days);
  t.setUTCHours(t.getUTCHours() + offset.hours, t.getUTCMinutes() + offset.minutes, t.getUTCSeconds() + offset.seconds);
  return t;
}

/**
 * Field data with every clock code replaced: `indicators[k]` (a byte, or undefined when not set) introduces the codes
 * of clock `k` (primary, secondary, tertiary), read at `times[k]`. An indicator before anything else stays as written.
 */
export function formatClock(
  data: Uint8Array,
  indicators: readonly (number | undefined)[],
  times: readonly Date[],
): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < data.length; i++) {
    const k = indicators.indexOf(data[i]);
    const code = k >= 0 && i + 1 < data.length ? CODES[String.fromCharCode(data[i + 1])] : undefined;
    if (!code) {
      out.push(data[i]);
      continue;
    }
    for (const c of code(times[k])) out.push(c.charCodeAt(0));
    i++;
  }
  return Uint8Array.from(out);
}
