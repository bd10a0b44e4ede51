// `npm run soak`: replays the hostile-load attacks of issue 16 against the standalone server on loopback while
// an innocent client renders small labels, then prints what the innocent client saw, the server's memory
// (peak, and settled 5 s after the attacks) and the pages granted against a pages-per-day limit.
// Bounded: every attack runs a fixed number of times or until --seconds (default 20) have passed.
// Options: --seconds=N, --only=costly,glyphs,bombs,modules,pages (default all), --server-env=NAME=VALUE (repeatable).

import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { freePort, processCpuMs, startServer } from './http.js';
import { mib, ms, percentile, table } from './stats.js';

const PREFIX = '/compatibility/legacy/v1/printers';
const PAGES_PER_DAY = 50;

interface Answer {
  status: number;
  ms: number;
  text: string;
}

/** One POST on a fresh connection; `hangUpAfterMs` makes the client go away before the answer. */
function post(
  port: number,
  path: string,
  key: string,
  body: string,
  accept = 'image/png',
  hangUpAfterMs?: number,
): Promise<Answer> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    // The preview page's routes live outside the legacy prefix.
    const target = path.startsWith('/preview/') ? path : PREFIX + path;
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: target,
        method: 'POST',
        agent: false,
        headers: { 'X-API-Key': key, Accept: accept, 'Content-Type': 'text/plain' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            ms: performance.now() - t0,
            text:
              res.headers['content-type']?.startsWith('text/') || res.headers['content-type']?.includes('json')
                ? Buffer.concat(chunks).toString()
                : '',
          }),
        );
      },
    );
    req.on('error', (err) => resolve({ status: 0, ms: performance.now() - t0, text: err.message }));
    if (hangUpAfterMs !== undefined) setTimeout(() => req.destroy(), hangUpAfterMs);
    req.end(body);
  });
}

/** Resident set of the server process (its worker threads included), bytes. */
function rss(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

// ---- the attacks ----------------------------------------------------------------------------------

/** Item 1: legal but costly (3500 full-label reverse boxes at 15x15 in, 24 dpmm); the client hangs up after 0.5 s. */
const COSTLY = `^XA${'^FO0,0^FR^GB9135,9135,9135^FS'.repeat(3500)}^XZ`;

/** Item 2: 30 ^A0 sizes per request that no request used before. */
function glyphSizes(round: number): string {
  let zpl = '^XA';
  for (let i = 0; i < 30; i++) {
    const size = 1000 + (round * 30 + i) * 10;
    zpl += `^FO10,${10 + (i % 3) * 3000}^A0N,${size},${size}^FDWg^FS`;
  }
  return `${zpl}^XZ`;
}

/** Item 3: a stored format holding a Z64 ^GF that inflates to 2 MB, recalled with ^XF eight times (a few KB). */
function graphicBomb(): string {
  const bytes = 2 * 1024 * 1024;
  const z64 = deflateSync(Buffer.alloc(bytes, 0x55)).toString('base64');
  const format = `^XA^DFR:BOMB.ZPL^FS^FO0,0^GFA,${bytes},${bytes},1024,:Z64:${z64}:0000^FS^XZ`;
  return format + '^XA^XFR:BOMB.ZPL^FS^XZ'.repeat(8);
}

/** Item 12: a graphic declaring 2 GB. */
const DECLARED_2GB = '^XA^FO0,0^GFA,2000000000,2000000000,100,FFFF^FS^XZ';

/** QR codes of 620 bytes each: `count` of them make `count` x 1,700 module rects in the display list. */
function qrCodes(count: number): string {
  const field = (i: number) =>
    `^FO${i % 50},${i % 70}^BQN,2,4^FDMA,${String(i).padStart(4, '0')}${'X1Y2Z3'.repeat(100)}^FS`;
  return `^XA${Array.from({ length: count }, (_, i) => field(i)).join('')}^XZ`;
}

/** Item 4: a 10-page PDF. */
const TEN_PAGES = '^XA^FO20,20^GB100,100,10^FS^FO20,140^A0N,30,30^FDPage^FS^PQ10^XZ';

/** The innocent client's label: a box and a line of text on 4x6 in at 8 dpmm. */
const SMALL = '^XA^FO50,50^GB300,200,4^FS^FO70,80^A0N,40,40^FDInnocent^FS^XZ';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const seconds = Number(args.find((a) => a.startsWith('--seconds='))?.slice(10) ?? 20);
  const only = new Set(
    (args.find((a) => a.startsWith('--only='))?.slice(7) ?? 'costly,glyphs,bombs,modules,pages').split(','),
  );
  const serverEnv: Record<string, string> = {};
  for (const a of args.filter((x) => x.startsWith('--server-env='))) {
    const [k, ...v] = a.slice('--server-env='.length).split('=');
    serverEnv[k] = v.join('=');
  }
  const keys = {
    innocent: `soak_innocent_${randomBytes(8).toString('hex')}`,
    attacker: `soak_attacker_${randomBytes(8).toString('hex')}`,
    glyphs: `soak_glyphs_${randomBytes(8).toString('hex')}`,
    bomb: `soak_bomb_${randomBytes(8).toString('hex')}`,
    modules: `soak_modules_${randomBytes(8).toString('hex')}`,
    pages: `soak_pages_${randomBytes(8).toString('hex')}`,
  };
  const dir = mkdtempSync(join(tmpdir(), 'zpl-soak-'));
  const keysFile = join(dir, 'keys.json');
  writeFileSync(
    keysFile,
    JSON.stringify(
      Object.entries(keys).map(([name, key]) => ({
        key,
        scope: 'all',
        ...(name === 'pages' && { pagesPerDay: PAGES_PER_DAY }),
      })),
    ),
  );
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env))
    if (name === 'REDIS_URL' || name.startsWith('UPSTREAM_') || name.startsWith('SHADOW_')) delete env[name];
  Object.assign(env, serverEnv, { PORT: String(port), HOST: '127.0.0.1', API_KEYS_FILE: keysFile });
  const server = await startServer(env);
  const pid = server.pid!;
  try {
    // Warm both workers before measuring.
    await Promise.all([1, 2, 3, 4].map(() => post(port, '/8dpmm/labels/4x6/0', keys.innocent, SMALL)));
    const startRss = rss(pid);
    const cpu0 = processCpuMs(pid);
    let peak = startRss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rss(pid));
    }, 50);
    const until = performance.now() + seconds * 1000;
    const running = (): boolean => performance.now() < until;
    console.log(`# Soak: ${seconds} s of attacks on loopback port ${port}, server RSS at start ${mib(startRss)}\n`);

    const innocent: Answer[] = [];
    const innocentLoop = (async () => {
      while (running()) innocent.push(await post(port, '/8dpmm/labels/4x6/0', keys.innocent, SMALL));
    })();
    // Two connections of one key, each sending the costly document and hanging up after 0.5 s, over and over.
    const costly: Answer[] = [];
    const attackLoops = [0, 1].map(async () => {
      while (running() && only.has('costly'))
        costly.push(await post(port, '/24dpmm/labels/15x15/0', keys.attacker, COSTLY, 'image/png', 500));
    });
    const glyphs: Answer[] = [];
    const glyphLoop = (async () => {
      for (let round = 0; round < 10 && running() && only.has('glyphs'); round++)
        glyphs.push(await post(port, '/24dpmm/labels/15x15/0', keys.glyphs, glyphSizes(round)));
    })();
    const bombs: Answer[] = [];
    const bombLoop = (async () => {
      if (!only.has('bombs')) return;
      const doc = graphicBomb();
      for (let round = 0; round < 3 && running(); round++) {
        bombs.push(...(await Promise.all([0, 1, 2].map(() => post(port, '/8dpmm/labels/4x6/0', keys.bomb, doc)))));
      }
      bombs.push(await post(port, '/8dpmm/labels/4x6/0', keys.bomb, DECLARED_2GB));
    })();
    // 1 MiB of QR codes (2.9 million module rects) three at a time, and the preview page's 256 KiB layouts of them.
    const modules: Answer[] = [];
    const moduleLoop = (async () => {
      if (!only.has('modules')) return;
      const [render, preview] = [qrCodes(1600), qrCodes(400)];
      for (let round = 0; round < 2 && running(); round++) {
        modules.push(
          ...(await Promise.all([
            ...[0, 1, 2].map(() => post(port, '/8dpmm/labels/4x6/0', keys.modules, render)),
            ...[0, 1, 2].map(() =>
              post(port, '/preview/layout/8dpmm/4x6/0', keys.modules, preview, 'application/json'),
            ),
          ])),
        );
      }
    })();
    const pdfs = await Promise.all(
      Array.from({ length: only.has('pages') ? 32 : 0 }, () =>
        post(port, '/8dpmm/labels/4x6', keys.pages, TEN_PAGES, 'application/pdf'),
      ),
    );
    await Promise.all([innocentLoop, ...attackLoops, glyphLoop, bombLoop, moduleLoop]);
    const cpu1 = processCpuMs(pid);
    const attacksEnd = performance.now();
    await new Promise((r) => setTimeout(r, 5000));
    clearInterval(sampler);
    const settled = rss(pid);
    peak = Math.max(peak, rss(pid, 'VmHWM')); // the kernel's high-water mark catches spikes between samples

    const ok = innocent.filter((a) => a.status === 200).map((a) => a.ms);
    const failedInnocent = innocent.filter((a) => a.status !== 200);
    const granted = pdfs.filter((a) => a.status === 200).length * 10;
    const statusCount = (list: Answer[]): string => {
      const counts = new Map<number, number>();
      for (const a of list) counts.set(a.status, (counts.get(a.status) ?? 0) + 1);
      return [...counts].map(([s, n]) => `${n}x ${s || 'hung up'}`).join(', ');
    };
    const p99 = percentile(ok, 99);
    console.log(
      table(
        ['measure', 'result', 'target'],
        [
          [
            'innocent small labels (4x6, 8 dpmm): answered, p50 / p99',
            `${ok.length} of ${innocent.length} ok, ${ms(percentile(ok, 50))} / ${ms(p99)} ms`,
            `p99 < 1000 ms, none failed: ${p99 < 1000 && failedInnocent.length === 0 ? 'met' : 'MISSED'}`,
          ],
          [
            'server RSS: start / peak / 5 s after the attacks',
            `${mib(startRss)} / ${mib(peak)} / ${mib(settled)}`,
            `peak < 1.2 GB, settled < 700 MB: ${peak < 1.2e9 && settled < 700 * 1048576 ? 'met' : 'MISSED'}`,
          ],
          [
            `pages granted to 32 concurrent 10-page PDFs, pagesPerDay ${PAGES_PER_DAY}`,
            `${granted} (${statusCount(pdfs)})`,
            `<= ${PAGES_PER_DAY + 10}: ${granted <= PAGES_PER_DAY + 10 ? 'met' : 'MISSED'}`,
          ],
          ['costly documents, hung up after 0.5 s', statusCount(costly), ''],
          [
            'glyph-size requests (30 new ^A0 sizes each)',
            `${statusCount(glyphs)}, median ${ms(
              percentile(
                glyphs.map((g) => g.ms),
                50,
              ),
            )} ms`,
            '',
          ],
          ['^DF/^XF graphic bombs (3 at once) and a declared 2 GB graphic', statusCount(bombs), ''],
          [
            '1 MiB of QR codes (3 at once) and preview layouts of 256 KiB of them (3 at once)',
            statusCount(modules),
            '',
          ],
          [
            'server CPU during the attacks',
            cpu0 !== undefined && cpu1 !== undefined
              ? `${((cpu1 - cpu0) / 1000).toFixed(1)} s in ${((attacksEnd - (until - seconds * 1000)) / 1000).toFixed(1)} s`
              : '-',
            '',
          ],
        ],
      ),
    );
    const declared = bombs.at(-1);
    if (declared) console.log(`\ndeclared 2 GB graphic: ${declared.status} ${declared.text}`);
    if (failedInnocent.length)
      console.log(`innocent failures: ${statusCount(failedInnocent)}; first: ${failedInnocent[0].text.slice(0, 200)}`);
    const bombText = bombs.find((b) => b.status !== 200)?.text;
    if (bombText && bombText !== declared?.text) console.log(`graphic bomb answer: ${bombText.slice(0, 200)}`);
    const moduleText = modules.find((m) => m.status !== 200)?.text;
    if (moduleText) console.log(`QR codes answer: ${moduleText.slice(0, 200)}`);
  } finally {
    server.removeAllListeners('exit');
    await new Promise<void>((resolve) => {
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
    });
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
