// Property fuzzing of every ^B* barcode command with random field data and parameters (in range, at
// the edges, and hostile), rendered through the pool: an image or a clean RenderError, never a crash.

import { expect } from 'chai';
import { availableParallelism } from 'node:os';
import { barcodeCase, BARCODE_COMMANDS, drawCases, reportFailures, runAll } from './helpers/fuzz-cases.js';
import { expectCleanOutcome } from './helpers/fuzz-outcome.js';
import { fuzzPool } from './helpers/fuzz-pool.js';

describe('fuzz: barcode commands with random data and parameters', function () {
  this.timeout(600_000);

  it('knows the barcode commands it fuzzes', () => {
    expect(BARCODE_COMMANDS).to.include.members(['^BC', '^B3', '^BE', '^BQ', '^BX', '^B7']);
  });

  it('draws or refuses cleanly: every ^B* command, every density', async () => {
    const pool = fuzzPool();
    const cases = drawCases(barcodeCase(), 0xb4c0de, 300);
    const failures = await runAll(cases, Math.max(2, availableParallelism()), (c) =>
      expectCleanOutcome(c, () => pool.render(c.zpl, c.req)),
    );
    expect(failures, reportFailures(failures)).to.have.length(0);
  });
});
