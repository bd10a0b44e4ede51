// Slow clients on the standalone server: a request that dribbles its headers or body is answered 408 with an
// ERROR: text once its time limit (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS) has passed, and the connection
// closed; a request without Host gets a 400 with an ERROR: text. Short limits keep these behaviour tests.

import { expect } from 'chai';
import { readServerConfig } from '../server/config.js';
import { OpenApiChecker } from './helpers/openapi-check.js';
import { openRaw, rawRequest, type RawConnection, type RawResponse } from './helpers/raw-http.js';
import { startServer, stopServer, type StartedServer } from './helpers/server-process.js';

const PATH = '/compatibility/legacy/v1/printers/8dpmm/labels/2x1/0';
const BELOW_MOUNT = PATH.slice('/compatibility/legacy/v1'.length);
/** The standalone server's own answers, as the OpenAPI document describes them (an empty list: they match). */
const openApiProblems = (method: string, path: string, answer: RawResponse): string[] =>
  new OpenApiChecker().problems(method, path, { status: answer.status, headers: answer.headers, text: answer.body });
const TIMEOUT_TEXT =
  'ERROR: Request timed out: headers must arrive within 300 ms and the whole request within 600 ms\n';

/** Writes one byte every 50 ms until the server closes the connection; resolves with its answer. */
async function dribble(
  connection: RawConnection,
  head: string,
  byte: string,
): Promise<{ answer: RawResponse; bytesSent: number }> {
  connection.socket.write(head);
  let bytesSent = 0;
  const timer = setInterval(() => {
    if (connection.socket.writable) {
      connection.socket.write(byte);
      bytesSent++;
    }
  }, 50);
  try {
    return { answer: await connection.closed, bytesSent };
  } finally {
    clearInterval(timer);
  }
}

describe('standalone server: slow clients', () => {
  let server: StartedServer;
  let port: number;

  before(async () => {
    server = await startServer({ HEADERS_TIMEOUT_MS: '300', REQUEST_TIMEOUT_MS: '600' });
    port = Number(new URL(server.base).port);
  });
  after(() => stopServer(server.child));

  it('answers a dribbled body 408 with an ERROR: text and closes the connection', async () => {
    const head =
      `POST ${PATH} HTTP/1.1\r\nHost: zpl.test\r\nX-API-Key: ${server.devKey}\r\n` +
      'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100000\r\n\r\n^XA';
    const { answer, bytesSent } = await dribble(await openRaw(port), head, 'A');
    expect(answer.status).to.equal(408);
    expect(answer.headers.connection).to.equal('close');
    expect(answer.body).to.equal(TIMEOUT_TEXT);
    expect(bytesSent).to.be.below(100000); // cut off long before the body was complete
    expect(openApiProblems('POST', BELOW_MOUNT, answer)).to.deep.equal([]);
    expect(server.lines.filter((l) => /unexpected failure|Error/.test(l))).to.deep.equal([]);
  });

  it('answers dribbled headers 408 the same way', async () => {
    const head = `GET ${PATH}/%5EXA%5EXZ HTTP/1.1\r\nHost: zpl.test\r\nX-Slow: `;
    const { answer } = await dribble(await openRaw(port), head, 'x');
    expect(answer.status).to.equal(408);
    expect(answer.body).to.equal(TIMEOUT_TEXT);
  });

  it('answers an HTTP/1.1 request without Host 400 with an ERROR: text', async () => {
    const res = await rawRequest(port, `GET ${PATH}/%5EXA%5EXZ HTTP/1.1\r\nX-API-Key: ${server.devKey}\r\n\r\n`);
    expect(res.status).to.equal(400);
    expect(res.body).to.equal('ERROR: Request has no Host header\n');
    expect(openApiProblems('GET', `${BELOW_MOUNT}/%5EXA%5EXZ`, res)).to.deep.equal([]);
  });

  it('keeps serving ordinary requests meanwhile', async () => {
    const res = await rawRequest(
      port,
      `POST ${PATH} HTTP/1.1\r\nHost: zpl.test\r\nX-API-Key: ${server.devKey}\r\n` +
        'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 28\r\nConnection: close\r\n\r\n^XA^FO10,10^GB20,20,20^FS^XZ',
    );
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.equal('image/png');
  });

  it('reads the limits from HEADERS_TIMEOUT_MS and REQUEST_TIMEOUT_MS, with defaults of 10 s and 30 s', () => {
    expect(readServerConfig({}).timeouts).to.deep.equal({ headersTimeoutMs: 10_000, requestTimeoutMs: 30_000 });
    expect(readServerConfig({ HEADERS_TIMEOUT_MS: '2000', REQUEST_TIMEOUT_MS: '5000' }).timeouts).to.deep.equal({
      headersTimeoutMs: 2000,
      requestTimeoutMs: 5000,
    });
    expect(() => readServerConfig({ REQUEST_TIMEOUT_MS: '0' })).to.throw(
      'REQUEST_TIMEOUT_MS must be a whole number of milliseconds above 0, not 0',
    );
    expect(() => readServerConfig({ HEADERS_TIMEOUT_MS: '9000', REQUEST_TIMEOUT_MS: '5000' })).to.throw(
      'HEADERS_TIMEOUT_MS (9000) must not be above REQUEST_TIMEOUT_MS (5000)',
    );
  });
});
