// The legacy viewer's permalink: `?density=8&quality=grayscale&width=4&height=6&units=inches&index=0&rotation=0&zpl=...`.
// The page opens such a link as the legacy viewer does, and writes its own address in the same form and order, so a
// link's query string opens the same label on both.

import { DECIMAL, isUnit, type Unit } from './label-size.js';

export interface ViewerSettings {
  /** Dots per millimetre: 6, 8, 12 or 24. */
  density: string;
  quality: 'grayscale' | 'bitonal';
  /** In `units`, as typed. */
  width: string;
  height: string;
  units: Unit;
  /** Zero-based. */
  index: number;
  rotation: '0' | '90' | '180' | '270';
  zpl: string;
}

/** The parameters in the order the legacy viewer writes them. */
export const PERMALINK_PARAMETERS = [
  'density',
  'quality',
  'width',
  'height',
  'units',
  'index',
  'rotation',
  'zpl',
] as const satisfies readonly (keyof ViewerSettings)[];

const DENSITY = /^(6|8|12|24)(?:dpmm)?$/i;
const ROTATIONS = ['0', '90', '180', '270'] as const;

/**
 * The settings a query string gives; a parameter that is missing or not a value the viewer knows is left out, so
 * the page keeps its own. `+` is a space, as links made with PHP's urlencode or Python's quote_plus mean it.
 */
export function readPermalink(search: string): Partial<ViewerSettings> {
  const query = new URLSearchParams(search);
  const settings: Partial<ViewerSettings> = {};
  const density = DENSITY.exec(query.get('density') ?? '');
  if (density) settings.density = density[1]!;
  const quality = query.get('quality')?.toLowerCase();
  if (quality === 'grayscale' || quality === 'bitonal') settings.quality = quality;
  for (const side of ['width', 'height'] as const) {
    const text = query.get(side);
    if (text !== null && DECIMAL.test(text)) settings[side] = text;
  }
  const units = query.get('units')?.toLowerCase();
  if (units !== undefined && isUnit(units)) settings.units = units;
  const index = query.get('index');
  if (index !== null && /^\d{1,9}$/.test(index)) settings.index = Number(index);
  const rotation = ROTATIONS.find((r) => r === query.get('rotation'));
  if (rotation) settings.rotation = rotation;
  const zpl = query.get('zpl');
  if (zpl !== null) settings.zpl = zpl;
  return settings;
}

/**
 * The query string (without `?`) of these settings, every value percent-encoded (`%20` for a space, `%2B` for `+`),
 * which every decoder reads the same way.
 */
export function writePermalink(settings: ViewerSettings): string {
  return PERMALINK_PARAMETERS.map((name) => `${name}=${encodeURIComponent(String(settings[name]))}`).join('&');
}
