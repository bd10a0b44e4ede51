// Shadow outcomes as replicas settle them (their onSettled pushes here), and a wait that ends on the count reached.

import type { ShadowOutcome } from '../../middleware/index.js';

export function settledCounter() {
  const outcomes: ShadowOutcome[] = [];
  let waiters: Array<() => void> = [];
  return {
    outcomes,
    push: (outcome: ShadowOutcome): void => {
      outcomes.push(outcome);
      for (const wake of waiters.splice(0)) wake();
    },
    /** Resolves once `count` outcomes have settled. */
    until: (count: number): Promise<void> =>
      new Promise((resolve) => {
        const check = (): void => {
          if (outcomes.length >= count) resolve();
          else waiters.push(check);
        };
        check();
      }),
    reset: (): void => {
      outcomes.length = 0;
      waiters = [];
    },
  };
}
