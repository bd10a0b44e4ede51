// `renderPng` as the outside contract names it: the same bytes the HTTP API returns for the same inputs.

import type { Dpmm, Quality, Rotation } from './api.js';
import { render } from './render.js';

export interface RenderPngOptions {
  dpmm: Dpmm;
  widthIn: number;
  heightIn: number;
  index?: number;
  rotation?: Rotation;
  quality?: Quality;
}

export async function renderPng(zpl: string | Uint8Array, opts: RenderPngOptions): Promise<Uint8Array> {
  const result = await render(zpl, { ...opts, index: opts.index ?? 0, format: 'png' });
  return result.body;
}
