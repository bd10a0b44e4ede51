// X-Warnings stays within what HTTP clients accept: each message and the whole header are capped, records are
// left out whole, never cut.

import { expect } from 'chai';
import http from 'node:http';
import { MAX_WARNINGS_HEADER_BYTES } from '../middleware/label-route/warnings.js';
import { buildApp, KEYS, labelsPath, listen, type Listening } from './helpers/http-app.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
}

/** POSTs with Node's own HTTP client (default header size limit), which refuses over-long headers. */
function post(port: number, path: string, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: { 'X-API-Key': KEYS.all, 'X-Linter': 'On', 'Content-Type': 'application/x-www-form-urlencoded' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body, 'latin1');
  });
}

/** Records of the header: five fields each, the last the message. */
function records(header: string): string[][] {
  const fields = header.split('|');
  expect(fields.length % 5, header.slice(0, 200)).to.equal(0);
  const out: string[][] = [];
  for (let i = 0; i < fields.length; i += 5) out.push(fields.slice(i, i + 5));
  return out;
}

describe('HTTP: X-Warnings size', () => {
  let server: Listening;
  let port: number;

  before(async () => {
    const { app } = await buildApp({ maxBodyBytes: 4 * 1024 * 1024 });
    server = await listen(app);
    port = server.port;
  });
  after(() => server.close());

  it("caps a message naming a 100 KB object, and Node's HTTP client takes the answer", async () => {
    const name = 'N'.repeat(100_000);
    const res = await post(
      port,
      labelsPath('8dpmm', '2x1', '0'),
      `^XA^FO10,10^XGR:${name}.GRF,1,1^FS^FO10,10^GB20,20,20^FS^XZ`,
    );
    expect(res.status).to.equal(200);
    const header = String(res.headers['x-warnings']);
    expect(header.length).to.be.at.most(MAX_WARNINGS_HEADER_BYTES);
    const [[byteIndex, byteSize, command, param, message]] = records(header) as [string[]];
    expect([byteIndex, byteSize, command, param]).to.deep.equal(['14', '100010', '^XG', '1']);
    expect(message).to.match(/^Object R:N+\.\.\.$/);
    expect(message!.length).to.equal(256);
  });

  it('keeps the whole header under 8 KB with many long warnings, leaving records out whole', async () => {
    const fields = Array.from(
      { length: 40 },
      (_, i) => `^FO10,10^XGR:${String(i).padStart(3, '0')}${'É'.repeat(2000)}.GRF^FS`,
    ).join('');
    const res = await post(port, labelsPath('8dpmm', '2x1', '0'), `^XA${fields}^XZ`);
    expect(res.status).to.equal(200);
    const header = String(res.headers['x-warnings']);
    expect(Buffer.byteLength(header)).to.be.at.most(MAX_WARNINGS_HEADER_BYTES);
    expect(header).to.match(/^[\x20-\x7e]+$/); // non-ASCII bytes became '?', never a cut UTF-8 sequence
    const found = records(header);
    expect(found.length).to.be.within(2, 20);
    found.forEach(([, , command, , message], i) => {
      expect(command).to.equal('^XG');
      expect(message).to.match(new RegExp(`^Object R:${String(i).padStart(3, '0')}\\?+\\.\\.\\.$`));
    });
  });
});
