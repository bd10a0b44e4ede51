// Work written as steps: a generator that yields where it may pause (between tokens, labels, display elements) once
// its meter says the slice is spent (WorkMeter.sliceDue). On a render thread nothing yields and `finish` runs the
// steps through; on the server's own thread (RENDER_THREADS=0, the library's render()) `finishSliced` gives the event
// loop back at each yield, so health checks and other requests are answered while a long document renders.

/** Steps towards a `T`: each `yield` is a point where the work may pause for the event loop. */
export type Steps<T> = Generator<void, T, void>;

/** What a sliced run tells when it resumes: the meter starts a new slice. */
export interface Slices {
  readonly sliced: boolean;
  readonly sliceDue: boolean;
  resumed(): void;
}

/** Runs steps to their end on this thread (a render thread, or a caller with no event loop to keep). */
export function finish<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Runs steps to their end, giving the event loop a turn (setImmediate: after pending I/O) at every yield. */
export async function finishSliced<T>(steps: Steps<T>, slices: Slices): Promise<T> {
  if (!slices.sliced) return finish(steps);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await turn(slices);
  }
}

/** Between two pieces of sliced work (labels, stages): gives the event loop a turn if the slice is spent. */
export async function pauseIfDue(slices: Slices): Promise<void> {
  if (slices.sliceDue) await turn(slices);
}

async function turn(slices: Slices): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
  slices.resumed();
}
