// Worker thread of png-comparer.ts: decodes two PNGs with jimp and scores them, off the event loop that
// serves requests (a 4x6 label is a million pixels per image).

import { parentPort } from 'node:worker_threads';
import { Jimp } from 'jimp';
import { greyFromRgba, inkF1, type GreyImage } from './ink-f1.js';
import type { CompareReply, CompareTask } from './png-comparer.js';

async function decode(png: Uint8Array): Promise<GreyImage> {
  const image = await Jimp.read(Buffer.from(png.buffer, png.byteOffset, png.byteLength));
  const { width, height, data } = image.bitmap;
  return greyFromRgba(width, height, data);
}

parentPort!.on('message', async ({ id, reference, rendered }: CompareTask) => {
  let reply: CompareReply;
  try {
    reply = { id, score: inkF1(await decode(reference), await decode(rendered)) };
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
