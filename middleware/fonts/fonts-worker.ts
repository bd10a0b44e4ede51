// Worker thread of POST /fonts: reads, checks and subsets the font and writes its hex off the event loop that serves
// requests (subsetting a large font takes most of a second; a hostile one is stopped by the worker's budgets).

import { serveTasks } from '../workers/task-worker.js';
import { FontError, fontToZpl, type FontDownload, type FontOrder } from './font-download.js';

export interface FontTask {
  font: Uint8Array;
  order: FontOrder;
}

/** What the worker answers: the download, or the refusal to pass on (FontError does not cross threads). */
export type FontReply = { download: FontDownload } | { refused: { message: string } };

serveTasks(({ font, order }: FontTask): FontReply => {
  try {
    return { download: fontToZpl(font, order) };
  } catch (err) {
    if (err instanceof FontError) return { refused: { message: err.message } };
    throw err;
  }
});
