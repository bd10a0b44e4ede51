// `npm run fleet`: a fleet on loopback. A shared store (a Redis Sentinel setup by default, a 3-master Redis Cluster,
// or a throw-away PostgreSQL server of its own), N replicas of the standalone server, and HAProxy (Debian's haproxy)
// health-checking /readyz in front. Bounded load goes through HAProxy while every replica is restarted in turn
// (SIGTERM, then started again) and then the store is disrupted: under Sentinel the Redis master is killed, under
// PostgreSQL the server is stopped (immediate mode, as a crash) and started again a few seconds later. Prints
// requests served, failures by kind, the time to recovery of each disruption, and whether a pages-per-day limit held
// exactly across the replicas and the disruptions (half of it spent before them, the rest and 20 more after).
// Options: --replicas=N (3), --store=redis-sentinel|redis-cluster|postgres (redis-sentinel; --redis=sentinel|cluster
// is the same), --concurrency=N (8), --limit=N (pages/day, 40), --store-down=S (PostgreSQL's time stopped, 5),
// --retry-ms=N (a client's pause after a failed request, 100), --verbose (every failure: when, which replica, what),
// --timeout=S (the whole run, 900: past it the bench stops everything and fails).
// Not a test: the figures move with the machine. Needs haproxy, and redis-server/redis-cli or Debian's postgresql
// (its programs under /usr/lib/postgresql/*/bin; the machine's own PostgreSQL is never touched).

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createPostgresServer, postgresBinaries, type PostgresServer } from '../test/helpers/postgres-server.js';
import { freePort } from './http.js';

const args = new Map(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=') as [string, string]));
const REPLICAS = Number(args.get('replicas') ?? 3);
const STORES = ['redis-sentinel', 'redis-cluster', 'postgres'] as const;
type Store = (typeof STORES)[number];
const STORE = (args.get('store') ?? (args.has('redis') ? `redis-${args.get('redis')}` : 'redis-sentinel')) as Store;
if (!STORES.includes(STORE)) {
  console.error(`ERROR: --store must be one of ${STORES.join(', ')} (or --redis=sentinel|cluster), not ${STORE}`);
  process.exit(1);
}
const STORE_DOWN_MS = Number(args.get('store-down') ?? 5) * 1000;
const RETRY_MS = Number(args.get('retry-ms') ?? 100);
const VERBOSE = args.has('verbose');
const TIMEOUT_MS = Number(args.get('timeout') ?? 900) * 1000;
const CONCURRENCY = Number(args.get('concurrency') ?? 8);
const LIMIT = Number(args.get('limit') ?? 40);
const SHUTDOWN_DELAY_MS = 2000;
const SCRIPT = new URL('../../.ci/redis-fleet.sh', import.meta.url).pathname;
const LABEL = '/compatibility/legacy/v1/printers/8dpmm/labels/2x1/0';
const ZPL = '^XA^FO20,20^GB200,100,4^FS^FO30,40^A0N,30,30^FDfleet^FS^XZ';
const KEY = 'zpl_fleet_load_key';
const LIMITED_KEY = 'zpl_fleet_limited_key';

const dir = mkdtempSync(join(tmpdir(), 'zpl-fleet-'));
const started: ChildProcess[] = [];
const say = (line: string): void => console.log(line);

function need(command: string, hint: string): void {
  if (spawnSync('sh', ['-c', `command -v ${command}`]).status !== 0) {
    console.error(`ERROR: ${command} is not installed (${hint})`);
    process.exit(1);
  }
}

/** Polls `check` every 100 ms until true; false after `ms` (every wait is bounded). */
async function until(check: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

/** One answer: when, its status, its kind (`503 key_store_unavailable`), and the replica HAProxy sent it to. */
interface Answer {
  at: number;
  status: number;
  kind: string;
  replica?: string;
}

/** One POST through HAProxy (kept-alive connections, as a real client pool would). */
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY + 4 });
function post(port: number, key: string): Promise<Answer> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: LABEL,
        method: 'POST',
        agent,
        headers: { 'X-API-Key': key, Accept: 'image/png', 'Content-Type': 'text/plain' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const status = res.statusCode!;
          let kind = String(status);
          if (status !== 200) {
            const text = Buffer.concat(chunks).toString();
            const error = /"error":"([a-z_]+)"/.exec(text)?.[1];
            kind = `${status} ${error ?? (/haproxy|<html>/i.test(text) ? 'from HAProxy' : text.slice(0, 40).trim())}`;
          }
          const replica = res.headers['x-served-by'];
          resolve({ at: Date.now(), status, kind, ...(typeof replica === 'string' && { replica }) });
        });
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) =>
      resolve({ at: Date.now(), status: 0, kind: `connection ${err.code ?? err.message}` }),
    );
    req.end(ZPL);
  });
}

interface Replica {
  name: string;
  port: number;
  child?: ChildProcess;
}

/** Under --verbose, the replicas' store_unavailable log lines (LOG_LEVEL=warn): why a 503 was answered. */
const storeLines: string[] = [];

function startReplica(replica: Replica, env: Record<string, string>): Promise<void> {
  const child = spawn(process.execPath, [new URL('../server/server.js', import.meta.url).pathname], {
    env: { ...process.env, ...env, PORT: String(replica.port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  replica.child = child;
  const lines: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (l) => lines.push(l));
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('listening on ')) resolve();
      if (VERBOSE && line.includes('"event":"store_unavailable"'))
        storeLines.push(`${new Date().toISOString()} ${replica.name} ${line}`);
    });
    child.once('exit', (code) =>
      reject(new Error(`${replica.name} exited with ${code}: ${lines.slice(-3).join(' | ')}`)),
    );
  });
}

function stopReplica(replica: Replica): Promise<void> {
  const child = replica.child!;
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** HAProxy's view of one server (UP, DOWN, ...), from its stats socket. */
function haproxyState(socket: string, server: string): Promise<string> {
  return new Promise((resolve) => {
    const conn = net.connect(socket);
    let text = '';
    conn.on('data', (d) => {
      text += d.toString();
    });
    conn.on('end', () =>
      resolve(
        text
          .split('\n')
          .find((l) => l.startsWith(`replicas,${server},`))
          ?.split(',')[17] ?? 'unknown',
      ),
    );
    conn.on('error', () => resolve('unknown'));
    conn.end('show stat\n');
  });
}

function haproxyConfig(front: number, replicas: Replica[], socket: string): string {
  return `global
  maxconn 2000
  stats socket ${socket} mode 600 level admin
defaults
  mode http
  timeout connect 1s
  timeout client 30s
  timeout server 30s
  retries 3
  option redispatch
  retry-on conn-failure empty-response
frontend api
  bind 127.0.0.1:${front}
  default_backend replicas
backend replicas
  http-response set-header X-Served-By %s
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  default-server inter 250 fall 2 rise 2
${replicas.map((r) => `  server ${r.name} 127.0.0.1:${r.port} check`).join('\n')}
`;
}

/** `count` single-label requests of the limited key, spread over the replicas by HAProxy, 8 at a time. */
async function spend(front: number, count: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  const queue = Array.from({ length: count }, (_, i) => i);
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (queue.shift() !== undefined) answers.push(await post(front, LIMITED_KEY));
    }),
  );
  return answers;
}

/** A disruption: when it began and, for a store, when the store was back (a new master, the server started). */
interface Disruption {
  name: string;
  at: number;
  backAt?: number;
}

/** Per disruption, its failures up to the next one and the ms from it (and from the store's return) to the last. */
function recoveries(
  answers: Answer[],
  events: Disruption[],
): { name: string; failures: number; ms: number; afterBackMs?: number }[] {
  return events.map((event, i) => {
    const end = events[i + 1]?.at ?? Infinity;
    const failed = answers.filter((a) => a.at >= event.at && a.at < end && a.status !== 200);
    const last = failed[failed.length - 1]?.at ?? event.at;
    return {
      name: event.name,
      failures: failed.length,
      ms: last - event.at,
      ...(event.backAt !== undefined && { afterBackMs: Math.max(0, last - event.backAt) }),
    };
  });
}

/** Answers after `from` end with `count` 200s in a row (a disruption is over). */
function recovered(answers: Answer[], from: number, count = 50): boolean {
  const since = answers.filter((a) => a.at > from);
  let run = 0;
  for (let i = since.length - 1; i >= 0 && since[i]!.status === 200; i--) run++;
  return run >= count;
}

/** The shared store the replicas use: what to set in their environment, and how to disrupt it mid-run. */
interface SharedStore {
  env: Record<string, string>;
  /** Disrupts the store, pushing its event; resolves once the store is back (bounded). */
  disrupt?: (events: Disruption[]) => Promise<void>;
}

let postgres: PostgresServer | undefined;

async function startRedis(topology: 'sentinel' | 'cluster'): Promise<SharedStore> {
  need('redis-server', 'apt-get install -y redis-server');
  need('redis-cli', 'apt-get install -y redis-tools');
  const base = 21_000 + Math.floor(Math.random() * 8_000);
  const setup = spawnSync('bash', [SCRIPT, topology, join(dir, 'redis'), String(base)], {
    encoding: 'utf8',
    timeout: 90_000,
  });
  if (setup.status !== 0) throw new Error(`Redis ${topology} did not start: ${setup.stderr}`);
  const nodes = setup.stdout.trim().split(' ')[1]!;
  say(`Redis ${topology}: ${nodes}`);
  if (topology === 'cluster') return { env: { REDIS_CLUSTER_NODES: nodes } };
  const [host, port] = nodes.split(',')[0]!.split(':');
  const masterPort = (): string | undefined =>
    spawnSync('redis-cli', ['-h', host!, '-p', port!, 'sentinel', 'get-master-addr-by-name', 'mymaster'], {
      encoding: 'utf8',
      timeout: 5_000,
    })
      .stdout?.trim()
      .split('\n')[1];
  return {
    env: { REDIS_SENTINELS: nodes },
    disrupt: async (events) => {
      const master = masterPort();
      const event: Disruption = { name: `kill Redis master :${master}`, at: Date.now() };
      events.push(event);
      spawnSync('sh', ['-c', `kill -9 $(cat ${join(dir, 'redis', `redis-${master}.pid`)})`]);
      if (
        !(await until(() => {
          const now = masterPort();
          return now !== undefined && now !== master;
        }, 60_000))
      )
        say('warning: Sentinel promoted no new master within 60 s');
      else event.backAt = Date.now();
    },
  };
}

async function startPostgres(): Promise<SharedStore> {
  const bin = postgresBinaries();
  if (!bin) throw new Error('no PostgreSQL server programs under /usr/lib/postgresql (apt-get install -y postgresql)');
  const port = await freePort();
  postgres = await createPostgresServer(port);
  await postgres.start();
  say(`PostgreSQL ${bin.split('/').slice(-2, -1)[0]} (a server of its own, trust auth): ${postgres.url}`);
  const server = postgres;
  return {
    env: { DATABASE_URL: server.url },
    disrupt: async (events) => {
      const event: Disruption = {
        name: `restart PostgreSQL :${port} (stopped ${(STORE_DOWN_MS / 1000).toFixed(0)} s)`,
        at: Date.now(),
      };
      events.push(event);
      await server.stop();
      await new Promise((r) => setTimeout(r, STORE_DOWN_MS));
      await server.start(); // pg_ctl -w -t 120: bounded; resolves once the server accepts connections
      event.backAt = Date.now();
    },
  };
}

async function main(): Promise<void> {
  need('haproxy', 'apt-get install -y haproxy');
  const store =
    STORE === 'postgres' ? await startPostgres() : await startRedis(STORE === 'redis-cluster' ? 'cluster' : 'sentinel');
  const keysFile = join(dir, 'keys.json');
  writeFileSync(
    keysFile,
    JSON.stringify([
      { key: KEY, scope: 'all' },
      { key: LIMITED_KEY, scope: 'all', pagesPerDay: LIMIT },
    ]),
  );
  const env = {
    ...store.env,
    API_KEYS_FILE: keysFile,
    RENDER_THREADS: '1',
    LOG_LEVEL: VERBOSE ? 'warn' : 'error',
    SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
  };
  const replicas: Replica[] = [];
  for (let i = 0; i < REPLICAS; i++) replicas.push({ name: `r${i}`, port: await freePort() });
  await Promise.all(replicas.map((r) => startReplica(r, env)));
  const front = await freePort();
  const socket = join(dir, 'haproxy.sock');
  writeFileSync(join(dir, 'haproxy.cfg'), haproxyConfig(front, replicas, socket));
  const haproxy = spawn('haproxy', ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'ignore', 'pipe'] });
  started.push(haproxy);
  const allUp = async (): Promise<boolean> =>
    (await Promise.all(replicas.map((r) => haproxyState(socket, r.name)))).every((s) => s === 'UP');
  if (!(await until(allUp, 60_000))) throw new Error('HAProxy never saw every replica UP');
  say(`${REPLICAS} replicas behind HAProxy on 127.0.0.1:${front} (health check GET /readyz)`);

  // The limit's first half, spent before the disruptions: the store must keep those pages through them.
  const limitedBefore = await spend(front, Math.floor(LIMIT / 2));

  // Load: CONCURRENCY clients, each one request at a time, until the disruptions are over.
  const answers: Answer[] = [];
  let running = true;
  // A client whose request failed waits RETRY_MS before the next, as a retrying client would: an outage of the whole
  // fleet is counted in tries, not in how fast HAProxy can answer 503.
  const clients = Array.from({ length: CONCURRENCY }, async () => {
    while (running) {
      const answer = await post(front, KEY);
      answers.push(answer);
      if (answer.status !== 200) await new Promise((r) => setTimeout(r, RETRY_MS));
    }
  });
  await until(() => answers.length >= 50, 60_000);

  const events: Disruption[] = [];
  for (const replica of replicas) {
    events.push({ name: `restart ${replica.name}`, at: Date.now() });
    await stopReplica(replica);
    await startReplica(replica, env);
    if (!(await until(async () => (await haproxyState(socket, replica.name)) === 'UP', 60_000)))
      say(`warning: ${replica.name} not UP again`);
  }
  if (store.disrupt) {
    await store.disrupt(events);
    // Recovered once 50 answers in a row are 200 (bounded: 90 s).
    const from = events[events.length - 1]!.at;
    if (!(await until(() => recovered(answers, from), 90_000)))
      say(`warning: no 50 answers in a row served within 90 s of "${events[events.length - 1]!.name}"`);
  }
  const settleFrom = answers.length;
  await until(() => answers.length >= settleFrom + 50, 30_000);
  running = false;
  await Promise.all(clients);

  // The limit's second half: the rest of it + 20 more (see spend).
  const limitedAfter = await spend(front, LIMIT - Math.floor(LIMIT / 2) + 20);
  const limited = [...limitedBefore, ...limitedAfter];

  const byKind = new Map<string, number>();
  for (const a of answers) if (a.status !== 200) byKind.set(a.kind, (byKind.get(a.kind) ?? 0) + 1);
  const served = answers.filter((a) => a.status === 200).length;
  say('');
  say(`| figure | value |\n| --- | --- |`);
  say(`| requests | ${answers.length} |`);
  say(`| served (200) | ${served} |`);
  say(`| failed | ${answers.length - served}${[...byKind].map(([k, n]) => `; ${k}: ${n}`).join('')} |`);
  const early = answers.filter((a) => a.at < (events[0]?.at ?? Infinity) && a.status !== 200).length;
  if (early > 0) say(`| before the first disruption | ${early} failed |`);
  for (const r of recoveries(answers, events)) {
    const afterBack =
      r.afterBackMs === undefined ? '' : ` (${(r.afterBackMs / 1000).toFixed(1)} s after the store was back)`;
    say(`| ${r.name} | ${r.failures} failed, recovered after ${(r.ms / 1000).toFixed(1)} s${afterBack} |`);
  }
  const granted = limited.filter((a) => a.status === 200).length;
  const refused = limited.filter((a) => a.status === 429).length;
  const others = new Map<string, number>();
  for (const a of limited) if (a.status !== 200 && a.status !== 429) others.set(a.kind, (others.get(a.kind) ?? 0) + 1);
  const otherKinds = others.size === 0 ? '' : ` (${[...others].map(([k, n]) => `${k}: ${n}`).join('; ')})`;
  const grantedBefore = limitedBefore.filter((a) => a.status === 200).length;
  say(
    `| pagesPerDay ${LIMIT} across ${REPLICAS} replicas and the disruptions | ${granted} granted (${grantedBefore} of ${limitedBefore.length} before them), ${refused} refused (429), ${limited.length - granted - refused} other${otherKinds}: ${granted === LIMIT ? 'held exactly' : 'NOT exact'} |`,
  );
  if (VERBOSE) {
    say('');
    for (const event of events) {
      say(
        `${event.name} at ${new Date(event.at).toISOString()}${event.backAt ? `, back after ${((event.backAt - event.at) / 1000).toFixed(1)} s` : ''}`,
      );
      const end = events[events.indexOf(event) + 1]?.at ?? Infinity;
      for (const a of answers) {
        if (a.at >= event.at && a.at < end && a.status !== 200)
          say(`  +${((a.at - event.at) / 1000).toFixed(2)} s ${a.replica ?? '-'} ${a.kind}`);
      }
    }
    say(`replicas' store_unavailable lines: ${storeLines.length}`);
    for (const line of storeLines) say(`  ${line}`);
    for (const [name, phase] of [
      ['limited key, before the disruptions', limitedBefore],
      ['limited key, after them', limitedAfter],
    ] as const) {
      say(`${name}: ${phase.length} requests`);
      const start = Math.min(...phase.map((a) => a.at));
      for (const [i, a] of phase.entries()) {
        if (a.status !== 200 && a.status !== 429)
          say(`  #${i + 1} +${((a.at - start) / 1000).toFixed(2)} s ${a.replica ?? '-'} ${a.kind}`);
      }
    }
  }
}

async function cleanUp(): Promise<void> {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  spawnSync('bash', [SCRIPT, 'stop', join(dir, 'redis')], { timeout: 30_000 });
  await postgres?.destroy(); // our own server only: its pid file is in its own folder
  // Servers write their last log lines as they go: try again for a moment.
  await until(() => {
    rmSync(dir, { recursive: true, force: true });
    return true;
  }, 5_000);
}

// Every wait above is bounded; this bounds the whole run as well.
const watchdog = setTimeout(() => {
  console.error(`ERROR: the fleet run took longer than ${TIMEOUT_MS / 1000} s: stopping`);
  void cleanUp().then(() => process.exit(1));
}, TIMEOUT_MS);
watchdog.unref();

main().then(cleanUp, async (err: unknown) => {
  console.error(`ERROR: ${(err as Error).message}`);
  await cleanUp();
  process.exit(1);
});
