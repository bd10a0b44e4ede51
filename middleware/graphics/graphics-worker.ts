// Worker thread of POST /graphics: decodes the image and packs its ^GFA rows off the event loop that serves
// requests (a legal 4096x4096 image takes seconds of CPU).

import { serveTasks } from '../workers/task-worker.js';
import { imageToGraphicField, ImageError, type Conversion, type GraphicField } from './image-to-gf.js';

export interface ConvertTask {
  image: Uint8Array;
  conversion: Conversion;
  threshold: number;
}

/** What the worker answers: the field, or the refusal to pass on (ImageError does not cross threads). */
export type ConvertReply = { field: GraphicField } | { refused: { status: 400 | 413; message: string } };

serveTasks(async ({ image, conversion, threshold }: ConvertTask): Promise<ConvertReply> => {
  try {
    return { field: await imageToGraphicField(image, conversion, threshold) };
  } catch (err) {
    if (err instanceof ImageError) return { refused: { status: err.status, message: err.message } };
    throw err;
  }
});
