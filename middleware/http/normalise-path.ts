// The request target, normalised once before anything routes, limits or forwards it, so that a request reaching
// the legacy service was counted by the limits of the route it maps to there:
// - absolute-form (`POST http://api.labelary.com/v1/printers/...`, what HTTP_PROXY clients send) becomes origin-form;
// - empty segments in the route part (`//printers/...`, `/printers//8dpmm/...`, `/4x6//`) are collapsed under
//   lenient paths, and otherwise refused with the 404 an unknown path gets (never forwarded);
// - dot segments in the route part, also with path parameters (`..;`, which Java servers read as `..`) or
//   percent-encoded, and encoded slashes there, are refused (400).
// The ZPL of a GET (path segments after the index) is kept byte for byte.

import { NOT_FOUND_MESSAGE, PlainHttpError } from './http-errors.js';

/** `/printers/{dpmm}/labels/{dimensions}/{index}`: the segments before any ZPL. */
const ROUTE_SEGMENTS = 5;
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;
const MAX_DECODING_ROUNDS = 3;

/** The segment as a server decoding it once or more would see it; undefined when it is not valid percent-encoding. */
export function fullyDecoded(segment: string): string | undefined {
  let text = segment;
  for (let round = 0; round < MAX_DECODING_ROUNDS && text.includes('%'); round++) {
    try {
      text = decodeURIComponent(text);
    } catch {
      return undefined;
    }
  }
  return text;
}

/** `.` or `..`, also with `;` path parameters after it (`..;`, `..;jsessionid=x`). */
export function isDotSegment(segment: string): boolean {
  const name = segment.split(';')[0];
  return name === '.' || name === '..';
}

function refuse(why: string): PlainHttpError {
  return new PlainHttpError(400, `Request path ${why}; it must stay below the legacy API base`);
}

/**
 * An origin-form path with nothing to normalise (no percent-encoding, backslash, empty or dot segment): what
 * nearly every request has, and it is returned as it is without splitting it into segments.
 */
function isPlainTarget(url: string): boolean {
  if (url.charCodeAt(0) !== 0x2f) return false;
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  return !path.includes('%') && !path.includes('\\') && !path.includes('//') && !path.includes('/.');
}

export type NormalisedTarget = { url: string } | { refusal: PlainHttpError };

/** The target below the mount point, normalised (see the head of this file). */
export function normaliseTarget(url: string, lenient: boolean): NormalisedTarget {
  if (isPlainTarget(url)) return { url };
  const origin = url.replace(ABSOLUTE_FORM, '');
  const target = origin === '' || origin.startsWith('?') ? `/${origin}` : origin;
  if (!target.startsWith('/')) return { refusal: refuse('is not in origin form (/path)') };
  const queryAt = target.indexOf('?');
  const path = queryAt < 0 ? target : target.slice(0, queryAt);
  const query = queryAt < 0 ? '' : target.slice(queryAt);
  const segments = path.split('/');
  const kept: string[] = [''];
  let named = 0;
  let empty = 0;
  let i = 1;
  for (; i < segments.length && named < ROUTE_SEGMENTS; i++) {
    const segment = segments[i]!;
    if (segment === '') {
      if (i === segments.length - 1)
        kept.push(''); // one trailing slash is a form the routes take
      else empty++;
      continue;
    }
    const decoded = fullyDecoded(segment);
    if (decoded === undefined) return { refusal: refuse('has malformed percent-encoding') };
    if (/[/\\]/.test(decoded)) return { refusal: refuse('has an encoded slash or backslash') };
    if (isDotSegment(decoded)) return { refusal: refuse("has a '.' or '..' segment (or an encoded one)") };
    kept.push(segment);
    named++;
  }
  if (empty > 0 && !lenient) return { refusal: new PlainHttpError(404, NOT_FOUND_MESSAGE) };
  const rest = segments.slice(i);
  return { url: [...kept, ...rest].join('/') + query };
}
