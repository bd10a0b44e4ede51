// An Express app that mounts the legacy router the way users do, with a memory key store and a set of keys.

import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import type request from 'supertest';
import {
  createLegacyRouter,
  createMemoryStores,
  LEGACY_MOUNT_PATH,
  type KeyRecord,
  type LegacyRouterOptions,
  type RenderFunction,
  type Stores,
} from '../../middleware/index.js';
import type { RenderHooks, RenderRequest, RenderResult } from '../../renderer/index.js';
import { checkAnswersFor } from './openapi-check.js';
import { startFakeUpstream, type FakeUpstream } from './upstream-fake.js';

export const BASE = LEGACY_MOUNT_PATH;

/** Keys every test app knows. */
export const KEYS = {
  all: 'k_test_all',
  pdf: 'k_test_pdf_only',
  png: 'k_test_png_only',
  expired: 'k_test_expired',
  revoked: 'k_test_revoked',
  future: 'k_test_expires_later',
} as const;

export const KEY_RECORDS: KeyRecord[] = [
  { key: KEYS.all, scope: 'all' },
  { key: KEYS.pdf, scope: 'pdf' },
  { key: KEYS.png, scope: 'png' },
  { key: KEYS.expired, scope: 'all', expiresAt: '2020-01-01T00:00:00Z' },
  { key: KEYS.revoked, scope: 'all', revoked: true },
  { key: KEYS.future, scope: 'all', expiresAt: '2999-01-01T00:00:00Z' },
];

export interface RenderCall {
  zpl: Buffer;
  req: RenderRequest;
  /** It answered with a label; false while running, and for good when it failed or its admission was refused. */
  drawn: boolean;
}

/**
 * A stand-in renderer that records its calls and answers with `result` (or throws what `fail` gives). With
 * `admits` it asks `hooks.admit` for the result's plan first, as the real renderer does between interpreting and
 * drawing, and a refusal stops it with that error.
 */
export function recordingRender(
  result: Partial<RenderResult> = {},
  fail?: (call: RenderCall) => unknown,
  options: { admits?: boolean } = {},
): RenderFunction & { calls: RenderCall[] } {
  const calls: RenderCall[] = [];
  const fn = async (zpl: Uint8Array | string, req: RenderRequest, hooks?: RenderHooks): Promise<RenderResult> => {
    const call = { zpl: Buffer.from(zpl), req, drawn: false };
    calls.push(call);
    const failure = fail?.(call);
    if (failure !== undefined) throw failure;
    const answer: RenderResult = {
      body: Buffer.from(req.format === 'pdf' ? '%PDF-fake' : 'fake-png'),
      contentType: req.format === 'pdf' ? 'application/pdf' : 'image/png',
      totalCount: 1,
      pages: 1,
      warnings: [],
      unsupported: [],
      ...result,
    };
    if (options.admits) await hooks?.admit?.({ totalCount: answer.totalCount, pages: answer.pages });
    call.drawn = true;
    return answer;
  };
  return Object.assign(fn, { calls });
}

export interface TestApp {
  app: Express;
  stores: Stores;
}

export async function buildApp(
  options: Partial<LegacyRouterOptions> = {},
  keys: KeyRecord[] = KEY_RECORDS,
): Promise<TestApp> {
  const stores = createMemoryStores();
  for (const record of keys) await stores.keyStore.add(record);
  const app = express();
  // Answers of our own (not the legacy service's, passed through in proxy and fallback modes) are checked
  // against the OpenAPI document; test/ops-openapi.test.ts fails the run on any mismatch.
  if ((options.mode ?? 'off') === 'off' || options.mode === 'shadow') {
    app.use(
      BASE,
      checkAnswersFor({
        anonymousKey: options.anonymousKey !== undefined,
        allowQueryKey: options.allowQueryKey ?? false,
        graphicsEndpoint: options.graphicsEndpoint ?? false,
        fontsEndpoint: options.fontsEndpoint ?? false,
        outputs: options.outputs ?? [],
      }),
    );
  }
  app.use(BASE, createLegacyRouter({ ...stores, log: () => {}, ...options }));
  return { app, stores };
}

/**
 * The legacy router on a shared backend's stores, mounted as a host mounts it, rendering with `render` (default: a
 * recording stand-in that asks for admission); for tests of the stores behind it.
 */
export function storesApp(
  stores: Pick<Stores, 'keyStore' | 'usageStore'>,
  options: Partial<LegacyRouterOptions> = {},
): Express {
  const app = express();
  app.use(
    BASE,
    createLegacyRouter({
      keyStore: stores.keyStore,
      usageStore: stores.usageStore,
      log: () => {},
      render: recordingRender({}, undefined, { admits: true }),
      ...options,
    }),
  );
  return app;
}

/** A supertest parser that collects the raw response body whatever its type. */
export function binaryBody(res: request.Response, cb: (err: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
}

/** Path of a render endpoint under the mount point. */
export function labelsPath(dpmm = '8dpmm', size = '4x6', ...rest: string[]): string {
  return [`${BASE}/printers/${dpmm}/labels/${size}`, ...rest].join('/');
}

export interface Listening {
  server: Server;
  port: number;
  /** Closes the server and every connection still open. */
  close(): void;
}

/** Serves `app` on an ephemeral port of 127.0.0.1, for clients that need a real socket. */
export function listen(app: Express): Promise<Listening> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => {
      resolve({
        server,
        port: (server.address() as AddressInfo).port,
        close: () => {
          server.closeAllConnections();
          server.close();
        },
      });
    });
  });
}

export interface FallbackApp extends TestApp {
  upstream: FakeUpstream;
  /** What the router logged (its `log` lines). */
  logged: string[];
}

/** A legacy router in fallback mode in front of a fake legacy service, keeping what it logs; close `upstream` after. */
export async function buildFallbackApp(
  options: Partial<LegacyRouterOptions> = {},
  upstreamKey = 'k_up',
): Promise<FallbackApp> {
  const upstream = await startFakeUpstream();
  const logged: string[] = [];
  const built = await buildApp({
    mode: 'fallback',
    upstream: { url: upstream.url, apiKey: upstreamKey },
    log: (m) => logged.push(m),
    ...options,
  });
  return { ...built, upstream, logged };
}
