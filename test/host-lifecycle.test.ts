// Lifecycle in a real host process (test/helpers/host-exit-child.ts): creating the router starts no
// threads, the first render starts the workers, `server.close()` alone stops none of them, and
// `server.close()` then `router.close()` stops them all so the process exits by itself (no process.exit).

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const CHILD = fileURLToPath(new URL('./helpers/host-exit-child.js', import.meta.url));

interface ChildReport {
  status: number;
  contentType: string;
  shadow: string;
  same: boolean;
  threads: {
    before?: number;
    atCreate?: number;
    atRender?: number;
    afterServerClose?: number;
    afterRouterClose?: number;
  };
  openAfterClose: string[];
}

describe('router lifecycle in a host process', function () {
  // The wait ends when the child exits on its own (a child that never does is the failure); on a loaded machine
  // starting it, its workers and the shadow comparison take their time, so the bound only ends a hang.
  this.timeout(180_000);

  it('starts workers on first use and exits by itself after server.close() and router.close()', async () => {
    const child = spawn(process.execPath, [CHILD], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
    expect(code, err).to.equal(0);
    const report = JSON.parse(out.trim()) as ChildReport;
    expect([report.status, report.contentType, report.shadow, report.same]).to.deep.equal([
      200,
      'image/png',
      'same',
      true,
    ]);
    // stdout and stderr are pipes to this test; anything else still open would be the router's.
    expect(report.openAfterClose.filter((name) => name !== 'PipeWrap' && name !== 'TTYWrap')).to.deep.equal([]);
    const { before, atCreate, atRender, afterServerClose, afterRouterClose } = report.threads;
    if (before === undefined) return; // no /proc: thread counts are a Linux check
    expect(atCreate, 'threads right after createLegacyRouter()').to.equal(before);
    expect(atRender!, 'threads after the first render').to.be.greaterThan(before);
    expect(afterServerClose!, 'threads after server.close() (render and compare workers still up)').to.be.greaterThan(
      atRender!,
    );
    expect(afterRouterClose, 'threads after router.close()').to.equal(before);
  });
});
