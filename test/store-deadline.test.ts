// The store deadline judges a store's answer, not the opening of a connection: code running under it (work given
// as a function) may pause its clock while it connects. Waits end on timers ordered after the deadline's own.

import { expect } from 'chai';
import { currentDeadline, StoreUnavailableError, trackDeadlines, withDeadline } from '../middleware/stores/deadline.js';

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('the store deadline', () => {
  before(() => trackDeadlines()); // as a PostgreSQL connection does
  it('rejects work that does not answer within it', async () => {
    const never = new Promise<never>(() => {});
    const outcome = await withDeadline(() => never, 5, 'key store').catch((err: unknown) => err);
    expect(outcome).to.be.instanceOf(StoreUnavailableError);
  });

  it('stops its clock while the work says it is connecting, and starts it again after', async () => {
    let connected!: () => void;
    const answer = withDeadline(
      async () => {
        const resume = currentDeadline()!.pause();
        await new Promise<void>((resolve) => {
          connected = resolve;
        });
        resume();
        return 'answered';
      },
      5,
      'key store',
    );
    let outcome: unknown;
    answer.then(
      (value) => {
        outcome = value;
      },
      (err: unknown) => {
        outcome = err;
      },
    );
    await wait(30); // the deadline's 5 ms timer (set before) has fired, and its turn passed
    await turn();
    expect(outcome, 'still waiting while connecting').to.equal(undefined);
    connected();
    expect(await answer).to.equal('answered');
  });

  it('judges what comes after the connect by what was left of it', async () => {
    const outcome = await withDeadline(
      async () => {
        currentDeadline()!.pause()(); // connected at once
        return new Promise<never>(() => {});
      },
      5,
      'usage store',
    ).catch((err: unknown) => err);
    expect(outcome).to.be.instanceOf(StoreUnavailableError);
    expect(currentDeadline(), 'outside any deadline').to.equal(undefined);
  });
});
