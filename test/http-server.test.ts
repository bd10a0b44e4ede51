// The standalone server (`npm start`): start-up lines, dev key, key file, graceful stop.

import { expect } from 'chai';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startServer, stopServer as stop } from './helpers/server-process.js';

const path = '/compatibility/legacy/v1/printers/8dpmm/labels/2x1/0';

describe('standalone server', () => {
  it('prints a development key that works, and stops cleanly on SIGTERM', async () => {
    const { child, base, lines } = await startServer({});
    try {
      const devLine = lines.find((l) => l.startsWith('dev API key: '));
      expect(devLine).to.match(/^dev API key: \S{20,}$/);
      const key = devLine!.slice('dev API key: '.length);
      expect((await request(base).post(path).type('form').send('^XA^XZ')).status).to.equal(401);
      const ok = await request(base).post(path).set('X-API-Key', key).type('form').send('^XA^FO10,10^GB20,20,20^FS^XZ');
      expect(ok.status).to.equal(200);
      expect(ok.headers['content-type']).to.equal('image/png');
      expect((await request(base).get('/compatibility/legacy/v1/nope').set('X-API-Key', key)).text).to.equal(
        'ERROR: HTTP 404 Not Found',
      );
    } finally {
      expect(await stop(child, 'SIGTERM')).to.equal(0);
    }
  });

  it('takes its keys from API_KEYS_FILE instead, and stops on SIGINT', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'zpl-server-'));
    const file = join(dir, 'keys.json');
    await writeFile(
      file,
      JSON.stringify([
        { key: 'k_file_pdf', scope: 'pdf' },
        { key: 'k_file_old', scope: 'all', expiresAt: '2001-01-01T00:00:00Z' },
      ]),
    );
    const { child, base, lines } = await startServer({ API_KEYS_FILE: file });
    try {
      expect(lines.some((l) => l.startsWith('dev API key'))).to.equal(false);
      const pdf = await request(base)
        .post(path)
        .set('X-API-Key', 'k_file_pdf')
        .set('Accept', 'application/pdf')
        .type('form')
        .send('^XA^XZ');
      expect(pdf.status).to.equal(200);
      expect(
        (await request(base).post(path).set('X-API-Key', 'k_file_pdf').type('form').send('^XA^XZ')).body.error,
      ).to.equal('scope_denied');
      expect(
        (await request(base).post(path).set('X-API-Key', 'k_file_old').type('form').send('^XA^XZ')).body.error,
      ).to.equal('key_expired');
    } finally {
      expect(await stop(child, 'SIGINT')).to.equal(0);
    }
  });

  it('answers an over-long URL with an ERROR text and shrugs off a client that hangs up mid-upload', async () => {
    const { child, base, lines, devKey } = await startServer({});
    const key = devKey!;
    try {
      const long = await request(base)
        .get(`${path}/${'A'.repeat(20_000)}`)
        .set('X-API-Key', key);
      expect(long.status).to.equal(431);
      expect(long.text).to.match(/^ERROR: Request URL or headers are too long/);
      // Declare 1000 bytes, send 10, hang up.
      const { connect } = await import('node:net');
      const url = new URL(base);
      await new Promise<void>((resolve) => {
        const sock = connect(Number(url.port), url.hostname, () => {
          sock.write(
            `POST ${path} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\n^XA^FO1,1^`,
          );
          setTimeout(() => {
            sock.destroy();
            resolve();
          }, 200);
        });
      });
      const ok = await request(base).post(path).set('X-API-Key', key).type('form').send('^XA^FO10,10^GB20,20,20^FS^XZ');
      expect(ok.status).to.equal(200);
      expect(lines.filter((l) => /unexpected failure/.test(l))).to.deep.equal([]);
    } finally {
      expect(await stop(child, 'SIGTERM')).to.equal(0);
    }
  });

  it('refuses to start with a broken key file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'zpl-server-'));
    const file = join(dir, 'keys.json');
    await writeFile(file, '[{"key": "k", "scope": "everything"}]');
    const error = await startServer({ API_KEYS_FILE: file }).then(
      (s) => {
        s.child.kill();
        return undefined;
      },
      (e: Error) => e,
    );
    expect(error?.message).to.contain('server exited with 1').and.to.contain('ERROR: key file');
  });

  it('refuses to start on a namespace PostgreSQL refuses as a schema, naming STORE_NAMESPACE', async () => {
    // Nothing listens on port 9: the check comes before any connection, where it used to retry forever.
    const error = await startServer({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:9/test',
      STORE_NAMESPACE: 'pg_x',
    }).then(
      (s) => {
        s.child.kill();
        return undefined;
      },
      (e: Error) => e,
    );
    expect(error?.message)
      .to.contain('server exited with 1')
      .and.to.match(/ERROR: STORE_NAMESPACE: PostgreSQL reserves schema names starting with pg_[^\n]*$/m);
  });
});
