// The linter's log is bounded whatever the document: the first MAX_KEPT_DIAGNOSTICS distinct diagnostics in full,
// then counts per kind; every feature not drawn is still reported, and every diagnostic met is charged.

import { expect } from 'chai';
import { DiagnosticLog, MAX_KEPT_DIAGNOSTICS } from '../renderer/diagnostics.js';

const unknown = (i: number, command = '^QQ') => ({
  byteIndex: i,
  byteSize: 3,
  command,
  param: 0,
  message: `Unknown command ${command}; ignored`,
  feature: command,
});

describe('diagnostics log', () => {
  it('keeps the first distinct entries in order, then counts the rest per kind', () => {
    let charged = 0;
    const log = new DiagnosticLog({ charge: (units) => (charged += units) });
    for (let i = 0; i < 1000; i++) log.add(unknown(i * 3));
    log.add(unknown(5000, '^ZZ'));
    expect(log.entries).to.have.length(MAX_KEPT_DIAGNOSTICS);
    expect(log.entries.map((d) => d.byteIndex)).to.deep.equal(
      Array.from({ length: MAX_KEPT_DIAGNOSTICS }, (_, i) => i * 3),
    );
    expect(Object.fromEntries(log.omitted)).to.deep.equal({ '^QQ': 1000 - MAX_KEPT_DIAGNOSTICS, '^ZZ': 1 });
    expect(log.omittedCount).to.equal(1001 - MAX_KEPT_DIAGNOSTICS);
    expect(log.features()).to.deep.equal(['^QQ', '^ZZ']);
    expect(charged).to.be.greaterThan(1000);
  });

  it('records a diagnostic met again (another copy of the label) once', () => {
    const log = new DiagnosticLog();
    for (let copy = 0; copy < 3; copy++) log.add(unknown(7));
    expect(log.entries).to.have.length(1);
    expect(log.omittedCount).to.equal(0);
  });

  it('cuts a kept message that quotes a very long name', () => {
    const log = new DiagnosticLog();
    log.add({
      byteIndex: 0,
      byteSize: 0,
      command: '^XG',
      param: 1,
      message: `Object ${'N'.repeat(100_000)} not found`,
    });
    expect(log.entries[0]!.message.length).to.equal(4096);
    expect(log.entries[0]!.message.endsWith('...')).to.equal(true);
  });
});
