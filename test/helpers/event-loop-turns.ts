// Counts the turns the event loop gets while some work runs: a chain of setImmediate callbacks, one a turn. Work run
// through at once lets in at most the one queued before it started; work in slices lets the chain in between them.

/** Runs `work`, counting the event loop's turns until it settles. */
export async function withTurnsCounted<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let done = false;
  const count = (): void => {
    turns++;
    if (!done) setImmediate(count);
  };
  setImmediate(count);
  try {
    const result = await work();
    return { result, turns };
  } finally {
    done = true;
  }
}
