import type { RenderRequest, RenderResult } from './api.js';

/** Renders a ZPL document (temporary stub: the real pipeline replaces this). */
export async function render(_zpl: Uint8Array | string, _req: RenderRequest): Promise<RenderResult> {
  throw new Error('not implemented yet');
}
