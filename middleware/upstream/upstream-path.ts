// Where a request goes below the legacy service's base URL. Rendering requests (fallback, shadow) are sent to a
// path built from their validated parameters only, never from the request target as received; proxy mode,
// which forwards every path, refuses targets that could leave the base (dot segments, encoded or not,
// backslashes, absolute-form) before the upstream key goes anywhere.

import type { Dpmm } from '../../renderer/index.js';
import { PlainHttpError } from '../http/http-errors.js';
import { fullyDecoded, isDotSegment } from '../http/normalise-path.js';

export interface LabelTarget {
  dpmm: Dpmm;
  widthIn: number;
  heightIn: number;
  /** Absent for the all-labels PDF endpoint. */
  index?: number;
  /** The ZPL of a GET, as the path segments it came in. */
  zplSegments?: readonly string[];
  /** The ZPL of a GET that sent it as the raw query string (decoded; sent on re-encoded). */
  zplQuery?: string;
}

/** `/printers/8dpmm/labels/4x6/0[/zpl...]`, every part rebuilt from parsed values or percent-encoded. */
export function labelUpstreamPath(target: LabelTarget): string {
  const parts = ['printers', `${target.dpmm}dpmm`, 'labels', `${target.widthIn}x${target.heightIn}`];
  if (target.index !== undefined) parts.push(String(target.index));
  for (const segment of target.zplSegments ?? []) {
    // No percent-encoding keeps a dot segment from being resolved by the next URL parser (`%2e` counts as `.`).
    if (isDotSegment(segment)) {
      throw new PlainHttpError(
        400,
        `ZPL in the path has a '${segment}' segment, which cannot be forwarded; send it with POST`,
      );
    }
    parts.push(encodeURIComponent(segment));
  }
  if (target.zplQuery !== undefined) return `/${parts.join('/')}/?${encodeURIComponent(target.zplQuery)}`;
  return `/${parts.join('/')}`;
}

/** The path, or undefined when the ZPL in the path cannot be forwarded (shadowing skips such requests). */
export function tryLabelUpstreamPath(target: LabelTarget): string | undefined {
  try {
    return labelUpstreamPath(target);
  } catch {
    return undefined;
  }
}

function refuse(why: string): never {
  throw new PlainHttpError(400, `Request path ${why}; it must stay below the legacy API base`);
}

/**
 * Proxy mode: the path and query below the mount point (`urlBelowMount`), checked to stay below the upstream
 * base. `requestTarget` is the request line's target (`req.originalUrl`): anything but origin-form is refused.
 */
export function proxiedPath(requestTarget: string, urlBelowMount: string): string {
  if (!requestTarget.startsWith('/') || requestTarget.startsWith('//')) refuse('is not in origin form (/path)');
  if (!urlBelowMount.startsWith('/')) refuse('is not in origin form (/path)');
  const queryAt = urlBelowMount.indexOf('?');
  const path = queryAt < 0 ? urlBelowMount : urlBelowMount.slice(0, queryAt);
  if (path.includes('\\')) refuse('has a backslash');
  for (const segment of path.split('/')) {
    const decoded = fullyDecoded(segment);
    if (decoded === undefined) refuse('has malformed percent-encoding');
    // An encoded slash or backslash could make a dot segment for a server that decodes before it splits;
    // `..;` is `..` to a Java server (path parameters dropped).
    if (decoded.split(/[/\\]/).some(isDotSegment))
      refuse("has a '.' or '..' segment (or an encoded one, or one with ';' parameters)");
  }
  return urlBelowMount;
}
