// Mutation fuzzing of the whole renderer (lexer -> interpreter -> drawing -> encoders) through the render
// pool, seeded from the 600 fixture documents: every case ends in an image or a clean RenderError within
// the time budget, and the pool keeps answering afterwards.

import { expect } from 'chai';
import { availableParallelism } from 'node:os';
import { render } from '../renderer/index.js';
import type { RenderPool } from '../renderer/pool/index.js';
import {
  craftedAttack,
  drawCases,
  loadFixtures,
  mutatedFixture,
  reportFailures,
  runAll,
  type FuzzCase,
} from './helpers/fuzz-cases.js';
import { expectCleanOutcome } from './helpers/fuzz-outcome.js';
import { fuzzPool } from './helpers/fuzz-pool.js';
const CANARY = '^XA^FO20,20^GB100,60,4^FS^FO30,100^A0N,30,30^FDcanary^FS^XZ';
const CANARY_REQ = { dpmm: 8, widthIn: 2, heightIn: 2, format: 'png', index: 0 } as const;

describe('fuzz: renderer on hostile documents', function () {
  this.timeout(600_000);
  let pool: RenderPool;
  const lanes = Math.max(2, availableParallelism());

  before(() => {
    pool = fuzzPool();
  });

  async function expectCanary(): Promise<void> {
    const [ours, inline] = await Promise.all([pool.render(CANARY, CANARY_REQ), render(CANARY, CANARY_REQ)]);
    expect(Buffer.from(ours.body).equals(Buffer.from(inline.body)), 'the pool still renders correctly').to.equal(true);
  }

  async function fuzz(cases: FuzzCase[]): Promise<Map<string, number>> {
    const outcomes = new Map<string, number>();
    const failures = await runAll(cases, lanes, async (c) => {
      const o = await expectCleanOutcome(c, () => pool.render(c.zpl, c.req));
      outcomes.set(o, (outcomes.get(o) ?? 0) + 1);
    });
    expect(failures, reportFailures(failures)).to.have.length(0);
    await expectCanary();
    return outcomes;
  }

  it('renders every fixture document as given, or refuses it cleanly', async () => {
    const cases = loadFixtures().map(
      (f): FuzzCase => ({
        how: f.id,
        zpl: f.zpl,
        req: { dpmm: f.dpmm, widthIn: f.widthIn, heightIn: f.heightIn, format: 'png', index: f.index },
      }),
    );
    expect(cases.length).to.be.at.least(600);
    const outcomes = await fuzz(cases);
    // The corpus is real labels: nearly all of them must draw.
    expect(outcomes.get('ok') ?? 0).to.be.greaterThan(cases.length * 0.9);
  });

  it('survives mutated fixtures: truncated, spliced, injected bytes, hostile numbers, missing ^XZ', async () => {
    const outcomes = await fuzz(drawCases(mutatedFixture(), 0x5eed1, 220));
    expect(outcomes.get('ok') ?? 0, 'most mutations still draw something').to.be.greaterThan(0);
  });

  it('survives crafted attacks: lying ^GF/~DG lengths, nested ^DF, recursive ^XF, bad UTF-8, huge counts', async () => {
    await fuzz(drawCases(craftedAttack(), 0x5eed2, 260));
  });
});
