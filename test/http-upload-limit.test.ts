// A 413 reaches a client that is still uploading: the rest of the body is read (up to a bound) before the
// answer, so the client is not reset mid-upload (EPIPE/ECONNRESET) and never sees the 413.

import { expect } from 'chai';
import http from 'node:http';
import { MAX_DRAIN_BYTES } from '../middleware/http/request-body.js';
import { buildApp, KEYS, labelsPath, recordingRender, listen, type Listening } from './helpers/http-app.js';
import { openRaw, rawRequest } from './helpers/raw-http.js';
import { startServer, stopServer } from './helpers/server-process.js';

const LIMIT_TEXT = 'ERROR: Request body is larger than the limit of 1048576 bytes';

interface Outcome {
  status?: number;
  body?: string;
  error?: string;
}

/** Uploads `size` bytes with Node's HTTP client, the length declared or chunked; never rejects. */
function upload(
  port: number,
  size: number,
  chunked: boolean,
  agent: http.Agent,
  key: string = KEYS.all,
): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: labelsPath('8dpmm', '2x1', '0'),
        agent,
        headers: {
          'X-API-Key': key,
          'Content-Type': 'application/x-www-form-urlencoded',
          ...(!chunked && { 'Content-Length': size }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString() }));
        res.on('error', (err) => resolve({ error: err.message }));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end(Buffer.alloc(size, 'A')); // one write, as most clients send a file
  });
}

const SIZES = Array.from({ length: 50 }, (_, i) => Math.round(1.4e6 + (0.6e6 * i) / 49));

/** 50 chunked uploads at once, then 50 with a declared length, each on its own connection. */
async function uploadMany(port: number, key?: string): Promise<Outcome[]> {
  const agent = new http.Agent({ keepAlive: true });
  try {
    const chunked = await Promise.all(SIZES.map((size) => upload(port, size, true, agent, key)));
    const declared = await Promise.all(SIZES.map((size) => upload(port, size, false, agent, key)));
    return [...chunked, ...declared];
  } finally {
    agent.destroy();
  }
}

function expectAll413(outcomes: Outcome[]): void {
  outcomes.forEach((outcome, i) => {
    expect(outcome, `upload ${i} of ${SIZES[i % 50]} bytes`).to.deep.equal({ status: 413, body: LIMIT_TEXT });
  });
}

describe('HTTP: uploads over the body limit', () => {
  let server: Listening;
  let port: number;
  let render: ReturnType<typeof recordingRender>;

  before(async () => {
    render = recordingRender();
    const { app } = await buildApp({ render }); // the default limit: 1 MiB
    server = await listen(app);
    port = server.port;
  });
  after(() => server.close());

  it('answers every one of 50 uploads of 1.4 to 2 MB with the 413, chunked or declared, never a reset', async () => {
    expectAll413(await uploadMany(port));
    expect(render.calls).to.have.length(0);
  });

  it('standalone server: the same', async () => {
    const standalone = await startServer({});
    try {
      expectAll413(await uploadMany(Number(new URL(standalone.base).port), standalone.devKey));
    } finally {
      await stopServer(standalone.child);
    }
  });

  it('answers only once the whole upload has arrived, on a connection that stays usable', async () => {
    for (const chunked of [false, true]) {
      const { socket } = await openRaw(port);
      const received: Buffer[] = [];
      socket.on('data', (c: Buffer) => received.push(c));
      const body = Buffer.alloc(1_500_000, 'A');
      const framed = (part: Buffer): Buffer =>
        chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part;
      socket.write(
        `POST ${labelsPath('8dpmm', '2x1', '0')} HTTP/1.1\r\nHost: zpl.test\r\nX-API-Key: ${KEYS.all}\r\n` +
          (chunked ? 'Transfer-Encoding: chunked\r\n\r\n' : `Content-Length: ${body.length}\r\n\r\n`),
      );
      await new Promise<void>((resolve) => socket.write(framed(body.subarray(0, 1_100_000)), () => resolve()));
      await new Promise((r) => setTimeout(r, 300)); // the old behaviour answered and closed here
      expect(Buffer.concat(received).length, 'answer before the upload was complete').to.equal(0);
      socket.write(Buffer.concat([framed(body.subarray(1_100_000)), Buffer.from(chunked ? '0\r\n\r\n' : '')]));
      const answer = await new Promise<string>((resolve) => {
        const check = (): void => {
          const text = Buffer.concat(received).toString('latin1');
          if (text.endsWith(LIMIT_TEXT)) resolve(text);
          else socket.once('data', check);
        };
        check();
      });
      expect(answer).to.match(/^HTTP\/1\.1 413 /);
      expect(socket.destroyed).to.equal(false);
      socket.destroy();
    }
  });

  it('keeps the connection for the next request once the refused upload is read', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      expect((await upload(port, 1_500_000, false, agent)).status).to.equal(413);
      const ok = await upload(port, 30, false, agent);
      expect(ok.status).to.equal(200);
      expect(render.calls).to.have.length(1);
    } finally {
      agent.destroy();
    }
  });

  it('answers at once and closes when the declared body is beyond what it would read', async () => {
    const head =
      `POST ${labelsPath('8dpmm', '2x1', '0')} HTTP/1.1\r\nHost: zpl.test\r\nX-API-Key: ${KEYS.all}\r\n` +
      `Content-Length: ${MAX_DRAIN_BYTES + 1}\r\n\r\n^XA`;
    const res = await rawRequest(port, head); // sends 3 of the declared bytes, then waits for the answer
    expect(res.status).to.equal(413);
    expect(res.headers.connection).to.equal('close');
    expect(res.body).to.equal(LIMIT_TEXT);
  });
});
