// X-Warnings-Omitted end to end: a linted answer says how many diagnostics X-Warnings leaves out (the kept ones past
// its 20 records, plus those the renderer only counted), by command too, through a worker and with RENDER_THREADS=0.

import { expect } from 'chai';
import request from 'supertest';
import type { Express } from 'express';
import { MAX_KEPT_DIAGNOSTICS } from '../renderer/diagnostics.js';
import { createRenderPool, type RenderPool } from '../renderer/pool/index.js';
import { MAX_WARNINGS } from '../middleware/label-route/warnings.js';
import { buildApp, KEYS, labelsPath } from './helpers/http-app.js';

const UNKNOWN = 300_000;
/** Issue 50's document: 300,000 unknown commands, each a diagnostic of its own (its own byte offset). */
const MANY_UNKNOWN = `^XA${'^QQ'.repeat(UNKNOWN)}^FO10,10^FDx^FS^XZ`;
/** The renderer keeps the first 100 and counts the rest; X-Warnings shows 20 of the kept: 80 + 299,900 are not shown. */
const NOT_SHOWN = MAX_KEPT_DIAGNOSTICS - MAX_WARNINGS + (UNKNOWN - MAX_KEPT_DIAGNOSTICS);

function post(app: Express, zpl: string, linter: 'On' | 'Off' = 'On') {
  return request(app)
    .post(labelsPath('8dpmm', '2x1', '0'))
    .set('X-API-Key', KEYS.all)
    .set('X-Linter', linter)
    .type('form')
    .send(zpl);
}

/** The records of an X-Warnings value (five fields each). */
function records(header: string): string[][] {
  const fields = header.split('|');
  expect(fields.length % 5).to.equal(0);
  return Array.from({ length: fields.length / 5 }, (_, i) => fields.slice(i * 5, i * 5 + 5));
}

describe('HTTP: X-Warnings-Omitted', function () {
  this.timeout(60_000);
  let pool: RenderPool;
  const apps: Record<string, Express> = {};

  before(async () => {
    // No express thread: every render crosses the worker boundary, so the count travels the pool's wire.
    pool = createRenderPool({ threads: 1, expressThreads: 0, timeoutMs: 30_000 });
    const maxBodyBytes = 4 * 1024 * 1024;
    apps.pool = (await buildApp({ maxBodyBytes, render: pool.render })).app;
    apps.inline = (await buildApp({ maxBodyBytes, renderThreads: 0 })).app;
  });
  after(() => pool.close());

  it('counts what X-Warnings leaves out of 300,000 unknown commands, the pool and RENDER_THREADS=0 alike', async () => {
    expect(NOT_SHOWN).to.equal(299_980);
    const answers = [];
    for (const path of ['pool', 'inline']) {
      const res = await post(apps[path]!, MANY_UNKNOWN);
      expect(res.status, path).to.equal(200);
      const shown = records(String(res.headers['x-warnings']));
      expect(shown, path).to.have.length(20);
      expect(shown[0]).to.deep.equal(['3', '3', '^QQ', '', 'Unknown command ^QQ; ignored']);
      expect(shown[19]![0]).to.equal(String(3 + 19 * 3));
      expect(res.headers['x-warnings-omitted'], path).to.equal('299980');
      expect(res.headers['x-warnings-omitted-commands'], path).to.equal('^QQ|299980');
      answers.push([res.headers['x-warnings'], res.headers['x-warnings-omitted']]);
    }
    expect(answers[0]).to.deep.equal(answers[1]);
  });

  it('counts kept diagnostics past the 20 shown by command, most first', async () => {
    // 22 distinct diagnostics of ^QZ after 3 of ^QQ: all kept, the last 5 not shown (all ^QZ).
    const res = await post(apps.inline!, `^XA${'^QQ'.repeat(3)}${'^QZ'.repeat(22)}^XZ`);
    expect(records(String(res.headers['x-warnings']))).to.have.length(20);
    expect(res.headers['x-warnings-omitted']).to.equal('5');
    expect(res.headers['x-warnings-omitted-commands']).to.equal('^QZ|5');
  });

  it('sends no count when X-Warnings shows every diagnostic', async () => {
    const res = await post(apps.pool!, '^XA^QQ^FO10,10^GB-5,10^FS^PMX^XZ');
    expect(res.status).to.equal(200);
    expect(records(String(res.headers['x-warnings']))).to.have.length(3);
    expect(res.headers).to.not.have.property('x-warnings-omitted');
    expect(res.headers).to.not.have.property('x-warnings-omitted-commands');
  });

  it('sends neither X-Warnings nor a count with the linter off', async () => {
    for (const path of ['pool', 'inline']) {
      const res = await post(apps[path]!, MANY_UNKNOWN, 'Off');
      expect(res.status, path).to.equal(200);
      expect(res.headers, path).to.not.have.property('x-warnings');
      expect(res.headers, path).to.not.have.property('x-warnings-omitted');
      expect(res.headers, path).to.not.have.property('x-warnings-omitted-commands');
    }
  });

  it('lets a browser read the count across origins', async () => {
    const { app } = await buildApp({ renderThreads: 0, cors: true });
    const res = await post(app, `^XA${'^QQ'.repeat(130)}^XZ`).set('Origin', 'https://example.test');
    const exposed = String(res.headers['access-control-expose-headers']).split(/,\s*/);
    expect(exposed).to.include.members(['X-Warnings-Omitted', 'X-Warnings-Omitted-Commands']);
    expect(res.headers['x-warnings-omitted']).to.equal('110'); // 130 met, 20 shown
  });
});
