// The hostile-input harness with a fixed seed: every surface of test/helpers/fuzz-surfaces.ts (command families,
// decoders, outputs, request headers, /graphics and /fonts) and issue 50's named seeds, against the server as a
// process with its render pool. Each answer is the output asked for or a clear error in the service's shape, within
// the hard cap, the RSS within the budget, /healthz answering throughout. `npm run fuzz` runs it long and times it.

import { expect } from 'chai';
import { EXTRA_OUTPUTS } from '../middleware/index.js';
import { fuzzServerEnv, rssBudgetFor, runFuzz, SEED_RSS_BUDGET_BYTES, type FuzzReport } from './helpers/fuzz-run.js';
import { fuzzSurfaces, namedSeeds } from './helpers/fuzz-surfaces.js';
import { startServer, stopServer, type StartedServer } from './helpers/server-process.js';

/** A few hundred requests in all. */
const RUNS_PER_SURFACE = 8;

describe('fuzz: every input surface against the server process', function () {
  this.timeout(900_000);
  let server: StartedServer;
  let report: FuzzReport;

  before(async () => {
    server = await startServer(fuzzServerEnv(EXTRA_OUTPUTS));
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    report = await runFuzz(
      {
        base: server.base,
        mount: '/compatibility/legacy/v1',
        apiKey: server.devKey!,
        pid: server.child.pid!,
        exited,
      },
      fuzzSurfaces(),
      // A cap no render within the deadline (10 s) misses at load average 20; a document's memory budget a lane.
      {
        runsPerSurface: RUNS_PER_SURFACE,
        seed: 0x5eed50,
        lanes: 2,
        capMs: 60_000,
        rssBudgetBytes: rssBudgetFor(2),
        seedRssBudgetBytes: SEED_RSS_BUDGET_BYTES,
      },
    );
  });
  after(async () => {
    if (server?.child.exitCode === null) await stopServer(server.child);
  });

  it('fuzzes every command family, decoder, output, request header and endpoint', () => {
    const names = report.surfaces.map((s) => s.name);
    for (const prefix of ['commands: ', 'decoder: ', 'output: ', 'header: ', 'endpoint: '])
      expect(names.filter((n) => n.startsWith(prefix)).length, prefix).to.be.greaterThan(1);
    for (const s of report.surfaces) expect(s.runs, s.name).to.be.at.least(RUNS_PER_SURFACE);
    expect(namedSeeds().length).to.be.at.least(5);
  });

  it('answers every request with its output or a clear error, within the cap and the memory budget', () => {
    const lines = report.failures.map((f) => `${f.surface} (${f.input}): ${f.problem.slice(0, 500)}`);
    expect(lines, lines.join('\n')).to.deep.equal([]);
  });

  it('keeps /healthz answering throughout', () => {
    expect(report.healthz.checks).to.be.greaterThan(0);
    expect(report.failures.filter((f) => f.input === '/healthz')).to.deep.equal([]);
  });
});
