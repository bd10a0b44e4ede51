// Worker thread of png-comparer.ts: decodes two PNGs with jimp and scores them, off the event loop that
// serves requests (a 4x6 label is a million pixels per image).

import { parentPort } from 'node:worker_threads';
import { inkF1 } from '../../compare/ink-f1.js';
import { decodeGreyPng } from '../../compare/png.js';
import type { CompareReply, CompareTask } from './png-comparer.js';

parentPort!.on('message', async ({ id, reference, rendered }: CompareTask) => {
  let reply: CompareReply;
  try {
    reply = { id, score: inkF1(await decodeGreyPng(reference), await decodeGreyPng(rendered)) };
  } catch (err) {
    reply = { id, error: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
