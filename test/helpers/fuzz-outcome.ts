// What every hostile render must end in: a well-formed PNG/PDF, or a RenderError with a known code and a
// one-line message; never another exception, never the time budget.

import { expect } from 'chai';
import { RenderError, type RenderErrorCode, type RenderResult } from '../../renderer/index.js';
import type { FuzzCase } from './fuzz-cases.js';

const CLEAN_CODES: RenderErrorCode[] = [
  'no-labels',
  'index-out-of-range',
  'too-many-labels',
  'too-large',
  'invalid',
  'failed',
];
const PNG_SIGNATURE = '89504e470d0a1a0a';

/** A field or command whose failure the renderer turned into a diagnostic: fine when it names a ZPL problem,
 * a bug when the message is a JavaScript engine error. */
export const SWALLOWED = /^(Field not drawn|Command failed): /;
export const ENGINE_ERROR =
  /Cannot (read|set) propert|is not a function|is not iterable|is not defined|Invalid (array|string|typed array) length|Maximum call stack|out of bounds|Array buffer allocation failed|Cannot convert|before initialization/;

/** Render failures are fine; crashes (any other error) and timeouts are not. */
export async function expectCleanOutcome(
  c: FuzzCase,
  run: () => Promise<RenderResult>,
): Promise<'ok' | RenderErrorCode> {
  let result: RenderResult;
  try {
    result = await run();
  } catch (err) {
    const where = `${c.how} (${c.zpl.length} bytes: ${JSON.stringify(Buffer.from(c.zpl.subarray(0, 300)).toString('latin1'))})`;
    if (!(err instanceof RenderError)) {
      throw new Error(`crash on ${where}: ${(err as Error)?.stack ?? String(err)}`);
    }
    expect(CLEAN_CODES, `${err.code}: ${err.message} on ${where}`).to.include(err.code);
    expect(err.message, where)
      .to.be.a('string')
      .and.not.match(/\n\s+at |node_modules|\/dist\//);
    return err.code;
  }
  const body = Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength);
  if (result.contentType === 'image/png') {
    expect(body.subarray(0, 8).toString('hex'), c.how).to.equal(PNG_SIGNATURE);
    expect(result.pages).to.equal(1);
  } else {
    expect(result.contentType, c.how).to.equal('application/pdf');
    expect(body.subarray(0, 5).toString('latin1'), c.how).to.equal('%PDF-');
    expect(body.subarray(-6).toString('latin1'), c.how).to.match(/%%EOF\s*$/);
  }
  expect(result.totalCount, c.how).to.be.at.least(result.pages);
  const bugs = result.warnings.filter((w) => SWALLOWED.test(w.message) && ENGINE_ERROR.test(w.message));
  expect(
    bugs.map((w) => `${w.command} at ${w.byteIndex}: ${w.message}`),
    `internal errors on ${c.how}`,
  ).to.deep.equal([]);
  return 'ok';
}
