// Clients cannot choose metric label values or log line sizes (issue: hostile input, defect 8): in fallback mode
// one 50 KB document of unknown two-letter commands used to add thousands of series and a 17 KB log line.

import { expect } from 'chai';
import express from 'express';
import request from 'supertest';
import {
  createEventSink,
  createLegacyRouter,
  createMemoryStores,
  createOpsRouter,
  LEGACY_MOUNT_PATH,
} from '../middleware/index.js';
import { buildApp, KEYS, KEY_RECORDS, labelsPath, recordingRender } from './helpers/http-app.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/upstream-fake.js';

/** `^AA ^AB ... ^ZZ`, each as its own unknown command, repeated to about 50 KB. */
function unknownCommands(): string {
  const names: string[] = [];
  for (const a of 'JKQUVWY') for (const b of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789') names.push(`^${a}${b}`);
  let zpl = '^XA';
  while (zpl.length < 50_000) zpl += names.map((n) => `${n}1,2`).join('');
  return `${zpl}^XZ`;
}

describe('metric label values and log lines stay bounded whatever the document says', () => {
  let upstream: FakeUpstream;
  beforeEach(async () => {
    upstream = await startFakeUpstream();
  });
  afterEach(() => upstream.close());

  it('fallback: a document of unknown commands adds series by family only, and a short log line', async () => {
    const stores = createMemoryStores();
    for (const record of KEY_RECORDS) await stores.keyStore.add(record);
    const events = createEventSink();
    const logged: string[] = [];
    const app = express();
    app.use(createOpsRouter({ keyStore: stores.keyStore, events }));
    app.use(
      LEGACY_MOUNT_PATH,
      createLegacyRouter({
        ...stores,
        events,
        log: (line) => logged.push(line),
        mode: 'fallback',
        upstream: { url: upstream.url },
        renderThreads: 0,
      }),
    );
    const res = await request(app)
      .post(labelsPath('8dpmm', '4x6', '0'))
      .set('X-API-Key', KEYS.all)
      .type('text')
      .send(unknownCommands());
    expect(res.status).to.equal(200);
    expect(res.headers['x-renderer']).to.equal('upstream');

    const metrics = (await request(app).get('/metrics')).text;
    const series = metrics.split('\n').filter((l) => l.startsWith('zpl_fallback_forwards_total{'));
    expect(series.length).to.be.at.least(1);
    // One series per family the document used (sigil and first letter): at most 7 here, never one per command.
    for (const line of series)
      expect(line).to.match(
        /^zpl_fallback_forwards_total\{command="(\^[A-Z]\*|~[A-Z]\*|other|page-composition)"\} \d+$/,
      );
    expect(series.length).to.be.at.most(7);

    const forward = logged.find((l) => l.includes('upstream_fallback'));
    expect(forward).to.not.equal(undefined);
    expect(forward!.length).to.be.below(512);
    expect(JSON.parse(forward!))
      .to.have.property('reason')
      .that.matches(/^unsupported (\S+ ){10}and \d+ more$/);
  });

  it('caps every log line: a 50 KB failure text is logged as its first 4096 characters and a count', async () => {
    const logged: string[] = [];
    const huge = new Error('x'.repeat(50_000));
    const { app } = await buildApp({ render: recordingRender({}, () => huge), log: (line) => logged.push(line) });
    const res = await request(app)
      .post(labelsPath('8dpmm', '4x6', '0'))
      .set('X-API-Key', KEYS.all)
      .type('text')
      .send('^XA^XZ');
    expect(res.status).to.equal(500);
    const failure = logged.find((l) => l.includes('unexpected failure'));
    expect(failure).to.not.equal(undefined);
    expect(failure!.length).to.be.at.most(4096 + 64);
    expect(failure).to.match(/\.\.\. \(\d+ more characters\)$/);
  });
});
