// Worker thread of png-comparer.ts: decodes two PNGs with jimp and scores them, off the event loop that
// serves requests (a 4x6 label is a million pixels per image).

import { inkF1 } from '../../compare/ink-f1.js';
import { decodeGreyPng } from '../../compare/png.js';
import { serveTasks } from '../workers/task-worker.js';
import type { CompareTask } from './png-comparer.js';

serveTasks(async ({ reference, rendered }: CompareTask) =>
  inkF1(await decodeGreyPng(reference), await decodeGreyPng(rendered)),
);
