// The request's work meter (renderer/work-meter.ts): bytes claimed against a budget, work charged with a checkpoint
// every CHECKPOINT_UNITS, the deadline and the caller's check read there, and the slice that tells steps to pause.

import { expect } from 'chai';
import { CHECKPOINT_UNITS } from '../renderer/decode/meter.js';
import { RenderError } from '../renderer/errors.js';
import { openDocument } from '../renderer/layout/document.js';
import { WorkMeter } from '../renderer/work-meter.js';

function thrown(f: () => void): RenderError {
  try {
    f();
  } catch (e) {
    if (e instanceof RenderError) return e;
    throw e;
  }
  throw new Error('expected a RenderError');
}

describe('WorkMeter', () => {
  it('refuses a claim past its budget, naming both sizes, and takes claims back', () => {
    const meter = new WorkMeter({ maxBytes: 1000 });
    meter.claim(600, 'A graphic');
    const err = thrown(() => meter.claim(500, 'Another graphic'));
    expect(err.code).to.equal('memory');
    expect(err.message).to.equal(
      'Another graphic needs 500 bytes; with the 600 bytes this document already uses, that exceeds its memory budget of 1000 bytes',
    );
    meter.release(600);
    expect(meter.bytes(900, 'A raster')).to.have.length(900);
    expect(meter.used).to.equal(900);
  });

  it("runs the caller's check once every CHECKPOINT_UNITS units charged, and counts the work", () => {
    let checks = 0;
    const meter = new WorkMeter({ timeoutMs: Number.POSITIVE_INFINITY, checkpoint: () => checks++ });
    for (let i = 0; i < 10; i++) meter.charge(CHECKPOINT_UNITS / 4);
    expect(checks).to.equal(2);
    expect(meter.work).to.equal(10 * (CHECKPOINT_UNITS / 4));
  });

  it('stops at its deadline at the next checkpoint', () => {
    const meter = new WorkMeter({ timeoutMs: 0 });
    const err = thrown(() => meter.charge(CHECKPOINT_UNITS));
    expect(err.code).to.equal('timeout');
    expect(err.message).to.equal('Rendering took longer than 0 ms and was stopped');
  });

  it('says the slice is spent at a checkpoint past sliceMs, and starts a new one when resumed', () => {
    const sliced = new WorkMeter({ sliceMs: 0, timeoutMs: Number.POSITIVE_INFINITY });
    expect(sliced.sliced).to.equal(true);
    sliced.charge(CHECKPOINT_UNITS - 1);
    expect(sliced.sliceDue, 'no checkpoint yet').to.equal(false);
    sliced.charge(1);
    expect(sliced.sliceDue).to.equal(true);
    sliced.resumed();
    expect(sliced.sliceDue).to.equal(false);
    const whole = new WorkMeter({ timeoutMs: Number.POSITIVE_INFINITY });
    whole.charge(10 * CHECKPOINT_UNITS);
    expect(whole.sliced).to.equal(false);
    expect(whole.sliceDue, 'a render thread never pauses').to.equal(false);
  });

  it('is charged by layout for every element it makes, so a field of many modules meets the deadline inside it', () => {
    const meter = new WorkMeter({ timeoutMs: Number.POSITIVE_INFINITY });
    const qr = (data: string) => `^XA^FO10,10^BQN,2,2^FDMA,${data}^FS^XZ`;
    const small = openDocument(qr('A'), { dpmm: 8, widthIn: 4, heightIn: 6 }, { meter });
    const before = meter.work;
    const smallElements = small.label(0).elements.length;
    const smallWork = meter.work - before;
    const bigMeter = new WorkMeter({ timeoutMs: Number.POSITIVE_INFINITY });
    const big = openDocument(qr('A'.repeat(1500)), { dpmm: 8, widthIn: 4, heightIn: 6 }, { meter: bigMeter });
    const bigBefore = bigMeter.work;
    const bigElements = big.label(0).elements.length;
    const bigWork = bigMeter.work - bigBefore;
    expect(bigElements).to.be.greaterThan(20 * smallElements);
    expect(bigWork).to.be.greaterThan(20 * smallWork);
    expect(bigWork).to.be.at.least(bigElements * 100);
  });
});
