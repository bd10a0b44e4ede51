import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { createLineWriter, type WriteChunk } from '../server/log-writer.js';

/** A reader that takes each write only when the test says so. */
function heldReader() {
  const chunks: string[] = [];
  const pending: ((err: Error | null, written?: number) => void)[] = [];
  let onWrite: (() => void) | undefined;
  const write: WriteChunk = (chunk, done) => {
    chunks.push(chunk.toString('utf8'));
    pending.push(done);
    onWrite?.();
  };
  return {
    write,
    chunks,
    /** Completes the oldest write (all of it, or `written` bytes of it, or with `err`). */
    take(err: Error | null = null, written?: number) {
      pending.shift()!(err, written);
    },
    /** Resolves on the next write. */
    nextWrite: () =>
      new Promise<void>((resolve) => {
        onWrite = () => {
          onWrite = undefined;
          resolve();
        };
      }),
  };
}

const line = (n: number): string => `{"n":${n}}\n`;
const errno = (code: string): Error => Object.assign(new Error(code), { code });

describe("the standalone server's log lines (server/log-writer)", () => {
  it('writes a line at once, and the lines that queued meanwhile in one write, in order', () => {
    const reader = heldReader();
    const out = createLineWriter(reader.write);
    out.write(line(1));
    out.write(line(2));
    out.write(line(3));
    expect(reader.chunks).to.deep.equal([line(1)]);
    reader.take();
    expect(reader.chunks).to.deep.equal([line(1), line(2) + line(3)]);
  });

  it('drops lines past its bound while the reader stalls, and reports how many ahead of the next lines', () => {
    const reader = heldReader();
    const out = createLineWriter(reader.write, 3 * line(1).length);
    for (let n = 1; n <= 6; n++) out.write(line(n)); // 1 goes out; 2, 3, 4 queue; 5 and 6 are dropped
    expect(out.dropped).to.equal(2);
    reader.take();
    const [report, ...rest] = reader.chunks[1]!.split('\n');
    expect(JSON.parse(report!)).to.include({ level: 'warn', event: 'log_lines_dropped', dropped: 2 });
    expect(rest.join('\n')).to.equal(line(2) + line(3) + line(4));
    reader.take();
    out.write(line(7));
    expect(reader.chunks[2]).to.equal(line(7));
  });

  it('reports dropped lines once the reader takes lines again, even when no line follows', () => {
    const reader = heldReader();
    const out = createLineWriter(reader.write, line(1).length);
    out.write(line(1)); // goes out
    out.write(`{"long":"${'x'.repeat(20)}"}\n`); // longer than the bound: dropped
    reader.take();
    expect(reader.chunks).to.have.length(2);
    expect(JSON.parse(reader.chunks[1]!)).to.include({ event: 'log_lines_dropped', dropped: 1 });
  });

  it('flushes: true once every line is out, false when the reader has not taken them in time', async () => {
    const reader = heldReader();
    const out = createLineWriter(reader.write);
    expect(await out.flush(0)).to.equal(true);
    out.write(line(1));
    expect(await out.flush(0)).to.equal(false);
    const flushed = out.flush(600_000);
    reader.take();
    expect(await flushed).to.equal(true);
  });

  it('sends the rest of a write the reader took only part of', () => {
    const reader = heldReader();
    const out = createLineWriter(reader.write);
    out.write('abcdef\n');
    reader.take(null, 4);
    expect(reader.chunks).to.deep.equal(['abcdef\n', 'ef\n']);
  });

  it('tries a write again after EAGAIN (a non-blocking pipe that is full)', async () => {
    const reader = heldReader();
    const out = createLineWriter(reader.write);
    out.write(line(1));
    const again = reader.nextWrite();
    reader.take(errno('EAGAIN'));
    await again;
    expect(reader.chunks).to.deep.equal([line(1), line(1)]);
  });

  it('keeps the process alive while it flushes, though its only pending work is a retry after EAGAIN', async () => {
    // The shutdown of the standalone server: nothing else holds the event loop once the servers and pool are closed.
    const writer = new URL('../server/log-writer.js', import.meta.url).href;
    const script = `
      import { createLineWriter } from ${JSON.stringify(writer)};
      let refusals = 2;
      const out = createLineWriter((chunk, done) => {
        if (refusals-- > 0) { setImmediate(() => done(Object.assign(new Error('EAGAIN'), { code: 'EAGAIN' }))); return; }
        process.stdout.write('written: ' + chunk);
        done(null);
      });
      out.write('the last line\\n');
      out.flush(60000).then((ok) => process.stdout.write('flushed: ' + ok + '\\n'));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script]);
    expect(stdout).to.equal('written: the last line\nflushed: true\n');
  });

  it('counts every line as dropped once the reader is gone (EPIPE), without throwing', async () => {
    const reader = heldReader();
    const out = createLineWriter(reader.write);
    out.write(line(1));
    out.write(line(2));
    reader.take(errno('EPIPE'));
    out.write(line(3));
    expect(out.dropped).to.equal(2);
    expect(reader.chunks).to.deep.equal([line(1)]);
    expect(await out.flush(0)).to.equal(true);
  });
});
