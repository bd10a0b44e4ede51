// A stand-in for the legacy service: an Express app on an ephemeral port of 127.0.0.1 that records every
// request (method, path, headers, body bytes) and answers with a known PNG, or however a test tells it to.

import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Response } from 'express';
import { boxPng } from './upstream-png.js';

/** Where the fake service lives below its origin, as the legacy service does. */
export const UPSTREAM_BASE_PATH = '/compatibility/legacy/v1';

export interface ReceivedRequest {
  method: string;
  /** Path and query below UPSTREAM_BASE_PATH. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type Answer = (received: ReceivedRequest, res: Response) => void;

/** Any request that reached the fake's server, below the base path or not. */
export interface Arrival {
  method: string;
  /** The request target as it arrived. */
  target: string;
  host: string | undefined;
}

/** The known label the fake answers with by default. */
export const UPSTREAM_PNG = boxPng(16, 8, { x: 2, y: 2, w: 5, h: 3 });

export const answerPng: Answer = (_received, res) => {
  res.status(200).set({ 'Content-Type': 'image/png', 'X-Total-Count': '1', 'X-Upstream': 'fake' }).end(UPSTREAM_PNG);
};

export interface FakeUpstream {
  /** Base URL to configure as `upstream.url`. */
  url: string;
  received: ReceivedRequest[];
  /** Every request that reached the server, wherever it was going (paths outside the base get a 404). */
  arrivals: Arrival[];
  /** How the next requests are answered (default `answerPng`). */
  answer: Answer;
  /** Resolves once `count` requests have arrived in all. */
  requests(count: number): Promise<ReceivedRequest[]>;
  /** Responses held by an answer that never replies, to release later. */
  held: Response[];
  close(): Promise<void>;
}

export async function startFakeUpstream(answer: Answer = answerPng): Promise<FakeUpstream> {
  const received: ReceivedRequest[] = [];
  const arrivals: Arrival[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const app = express();
  const fake: FakeUpstream = {
    url: '',
    received,
    arrivals,
    answer,
    held: [],
    requests: (count) =>
      new Promise((resolve) => {
        if (received.length >= count) resolve(received);
        else waiters.push({ count, resolve: () => resolve(received) });
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  app.use((req, _res, next) => {
    arrivals.push({ method: req.method, target: req.originalUrl, host: req.headers.host });
    next();
  });
  app.use(UPSTREAM_BASE_PATH, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = { method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks) };
      received.push(request);
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve();
      }
      fake.answer(request, res);
    });
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${UPSTREAM_BASE_PATH}`;
  return fake;
}

/** An answer that never replies (the legacy service hanging); the response is kept in `fake.held`. */
export function hang(fake: FakeUpstream): Answer {
  return (_received, res) => {
    fake.held.push(res);
  };
}

/** A base URL where nothing listens. */
export async function deadUpstreamUrl(): Promise<string> {
  const fake = await startFakeUpstream();
  await fake.close();
  return fake.url;
}
