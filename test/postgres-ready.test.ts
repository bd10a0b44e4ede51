// PostgreSQL stores at start-up: `ready` means every store can answer, so the first request sent the moment it
// resolves is served, never `503 key_store_unavailable`. The key store's first check of its seed marker is held
// back by a lock on the markers table (taken by the test), so that check is still running when the connection is up.

import { expect } from 'chai';
import pg from 'pg';
import request from 'supertest';
import { LEGACY_MOUNT_PATH } from '../middleware/index.js';
import { createPostgresStores, type PostgresStores } from '../middleware/stores/postgres/stores.js';
import { recordingRender, storesApp } from './helpers/http-app.js';
import { eventually, uniqueNamespace } from './helpers/http-redis.js';
import { DATABASE_URL, dropSchema, requirePostgres, sql } from './helpers/postgres.js';

const KEY = { key: 'k_ready_first', scope: 'all' } as const;
const png = `${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/4x6/0`;

describe('PostgreSQL stores: ready means the key store can answer', function () {
  this.timeout(60_000); // only ends a hang
  let namespace: string;
  let stores: PostgresStores | undefined;
  let locker: pg.Client | undefined;

  before(async function () {
    await requirePostgres(this);
  });
  beforeEach(() => {
    namespace = uniqueNamespace();
  });
  afterEach(async () => {
    await locker?.query('ROLLBACK').catch(() => undefined);
    await locker?.end();
    locker = undefined;
    await stores?.close();
    stores = undefined;
    await dropSchema(namespace);
  });

  it('serves the first request sent as soon as ready resolves, though the seed marker check is slow', async () => {
    // The schema and the key, from an earlier start.
    const first = createPostgresStores({ url: DATABASE_URL, namespace });
    await first.ready;
    await first.keyStore.add(KEY);
    const markers = first.connection.names.markers;
    await first.close();

    locker = new pg.Client({ connectionString: DATABASE_URL });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE ${markers} IN ACCESS EXCLUSIVE MODE`);

    const opened = createPostgresStores({ url: DATABASE_URL, namespace, heartbeatMs: 60_000 });
    stores = opened;
    const app = storesApp(opened, { render: recordingRender({}) });
    const send = () =>
      request(app).post(png).set('X-API-Key', KEY.key).set('Accept', 'image/png').type('form').send('^XA^XZ');
    // The request goes out the moment ready resolves, whenever that is.
    let firstAnswer: Promise<request.Response> | undefined;
    const answered = opened.ready.then(() => {
      firstAnswer = send();
      return firstAnswer;
    });
    // The seed marker check has reached the server and waits for the lock: the connection is up by now.
    const waiting = async (): Promise<boolean> =>
      (
        await sql(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`, [
          `SELECT value FROM ${markers}%`,
        ])
      ).length > 0;
    expect(await eventually(waiting, 20_000), 'the marker check waits for the lock').to.equal(true);
    // Where ready came before the check, its request has been answered while the check still waits.
    if (firstAnswer) await firstAnswer;
    await locker.query('ROLLBACK');
    const res = await answered;
    expect(res.status, res.text).to.equal(200);
  });
});
