// Worker-thread entry of the render pool: one render per task, the PNG/PDF body transferred, not copied.

import { move, transferableSymbol, valueSymbol } from 'piscina';
import { render } from '../render.js';
import { errorToWire, ownBuffer, type RenderReply, type RenderTask } from './wire.js';

export default async function renderTask(task: RenderTask): Promise<unknown> {
  try {
    const { body, ...rest } = await render(task.zpl, task.req);
    const buffer = ownBuffer(body);
    const reply: RenderReply = { ok: true, result: { ...rest, body: buffer } };
    // Piscina posts `valueSymbol` with everything under `transferableSymbol` in the transfer list.
    return move({ [transferableSymbol]: [buffer], [valueSymbol]: reply });
  } catch (err) {
    const reply: RenderReply = { ok: false, error: errorToWire(err) };
    return reply;
  }
}
