// Every code block of README.md and docs/*.md, run as a reader would run it (each file on its own: a section's
// server never serves another file's blocks):
// - ```ts: compiled (strict, module NodeNext) in a throw-away host outside the repository whose
//   `zpl-legacy-compat` is this built package, then run. A program that prints `listening on <url>` is a
//   server: the ```sh blocks after it in the same section run against it, then it gets SIGTERM and must
//   exit by itself. Blocks using createRedisStores run against REDIS_URL, blocks using createPostgresStores against
//   TEST_DATABASE_URL (as DATABASE_URL), each in a namespace of its own.
// - ```sh: run with bash against the running server of their section, or else against the standalone
//   server (`npm start`'s dist/bin/zpl-server.js, its printed dev key put in for `<key>`); port 3000 becomes
//   the server's ephemeral port. Files written with `-o` must be a PNG or PDF, and a `# {...}` or `# [...]`
//   comment after a command is output it must print.
// - ```json: parsed.
// - A ```ts program that imports express runs a second time on Express 4 (the express4 dev dependency), with the
//   shell blocks after it, and must print no deprecation line.
// - A page whose first line is `<!-- readme-test: session (why) -->` (getting started) runs instead as one terminal
//   session from an empty folder, with the package installed from this tree: test/helpers/doc-session.ts.
// Blocks preceded by `<!-- readme-test: skip (why) -->` are reported as pending with that reason; blocks in no
// language (diagrams, configuration excerpts) as pending, "not code".

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createClient } from '@keyv/redis';
import { expect } from 'chai';
import { checkShellResults, DocSession, documentedPorts, SESSION_MARKER } from './helpers/doc-session.js';
import { freePort, REDIS_URL, redisAnswers } from './helpers/http-redis.js';
import { DATABASE_URL, dropSchema, postgresAnswers, uniqueSchema } from './helpers/postgres.js';
import { SERVER_VARIABLE_NAMES } from '../server/variables.js';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const DOCUMENTED_ORIGIN = 'http://127.0.0.1:3000';

/** The Markdown files whose blocks run: the README and every page of docs/. */
export function documentationFiles(): string[] {
  return [
    'README.md',
    ...readdirSync(join(REPO, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `docs/${name}`),
  ];
}

interface Block {
  index: number;
  lang: string;
  section: string;
  code: string;
  skip?: string;
}

/** The fenced blocks of a Markdown text, with their section and skip marker. */
export function readBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('## ')) section = line.slice(3).trim();
    const open = /^(\s*)```(\w*)\s*$/.exec(line);
    if (!open) continue;
    const indent = open[1]!.length;
    const marker = /<!-- readme-test: skip \((.*)\) -->/.exec(lines[lineBefore(lines, i)] ?? '');
    const body: string[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]!); i++) body.push(lines[i]!.slice(indent));
    blocks.push({
      index: blocks.length + 1,
      lang: open[2]!,
      section,
      code: body.join('\n'),
      ...(marker && { skip: marker[1]! }),
    });
  }
  return blocks;
}

/** Index of the last non-empty line before `line`. */
function lineBefore(lines: string[], line: number): number {
  let i = line - 1;
  while (i >= 0 && lines[i]!.trim() === '') i--;
  return i;
}

interface Server {
  child: ChildProcess;
  origin: string;
  output: () => string;
  key?: string;
}

/** Starts `node script` and resolves once it prints `listening on <url>` (undefined when it exits first). */
function startProgram(
  script: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ server?: Server; code: Promise<number | null>; output: () => string }> {
  const child = spawn(process.execPath, [script], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const code = new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  return new Promise((resolve) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/\S+)/.exec(output);
      if (!listening) return;
      const key = /dev API key: (\S+)/.exec(output)?.[1];
      resolve({
        server: { child, origin: listening[1]!.replace(/\/$/, ''), output: () => output, ...(key && { key }) },
        code,
        output: () => output,
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    void code.then(() => resolve({ code, output: () => output }));
  });
}

/** SIGTERM, then the exit status the server reaches by itself. */
async function stop(server: Server): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
  if (server.child.exitCode !== null) return server.child.exitCode;
  server.child.kill('SIGTERM');
  return exited;
}

/**
 * A host folder whose node_modules links this package and every package the snippet imports; `installed` names
 * another installed package for an import (`{ express: 'express4' }`: Express 4, with its own types).
 */
function makeTsHost(root: string, code: string, installed: Record<string, string> = {}): string {
  const host = mkdtempSync(join(root, 'ts-'));
  const modules = join(host, 'node_modules');
  const links: Record<string, string> = {
    'zpl-legacy-compat': REPO,
    '@types/node': join(REPO, 'node_modules', '@types', 'node'),
  };
  for (const [, name] of code.matchAll(/from '((?:@[^/']+\/)?[^/'.][^/']*)/g)) {
    if (name!.startsWith('node:') || name === 'zpl-legacy-compat') continue;
    const as = installed[name!] ?? name!;
    links[name!] = join(REPO, 'node_modules', as);
    const types = join(REPO, 'node_modules', '@types', as.replace(/^@([^/]+)\//, '$1__'));
    if (existsSync(types)) links[`@types/${name!.replace(/^@([^/]+)\//, '$1__')}`] = types;
  }
  for (const [as, target] of Object.entries(links)) {
    mkdirSync(dirname(join(modules, as)), { recursive: true });
    symlinkSync(target, join(modules, as), 'dir');
  }
  writeFileSync(join(host, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(
    join(host, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        skipLibCheck: true,
        noEmitOnError: true,
        outDir: 'out',
        types: ['node'],
      },
      include: ['snippet.ts'],
    }),
  );
  writeFileSync(join(host, 'snippet.ts'), code);
  return host;
}

async function compileTs(host: string): Promise<void> {
  try {
    await run(process.execPath, [TSC, '-p', join(host, 'tsconfig.json')], { cwd: host });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    throw new Error(`the snippet does not compile:\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

/** Runs a shell block in `cwd` against `server`, then checks the files it wrote and the output it documents. */
async function runShell(code: string, server: Server, cwd: string): Promise<void> {
  let script = code.replaceAll(DOCUMENTED_ORIGIN, server.origin);
  if (server.key) script = script.replaceAll('<key>', server.key);
  const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', script], { cwd, timeout: 60_000 });
  checkShellResults(code, stdout, cwd);
}

/** The standalone server the shell blocks of every file share when their section started none. */
let standalone: Server | undefined;
let root: string;
const namespaces: string[] = [];
/** PostgreSQL schemas the blocks made, dropped at the end. */
const schemas: string[] = [];

before(() => {
  root = mkdtempSync(join(tmpdir(), 'zpl-readme-'));
  writeFileSync(join(root, 'labels.zpl'), '^XA^FO50,50^GB100,100,100^FS^XZ\n^XA^FO50,50^A0N,40,40^FDSecond^FS^XZ\n');
  // Files of the repository the pages name, at the same relative paths.
  mkdirSync(join(root, 'examples'));
  writeFileSync(join(root, 'examples', 'labels.zpl'), readFileSync(join(REPO, 'examples', 'labels.zpl')));
});

after(async () => {
  if (standalone) await stop(standalone);
  if (namespaces.length > 0) {
    const client = createClient({ url: REDIS_URL });
    await client.connect();
    for (const namespace of namespaces) {
      for await (const keys of client.scanIterator({ MATCH: `${namespace}:*`, COUNT: 100 }))
        if (keys.length > 0) await client.del(keys);
    }
    client.destroy();
  }
  for (const schema of schemas) await dropSchema(schema);
  rmSync(root, { recursive: true, force: true });
});

async function standaloneServer(): Promise<Server> {
  if (!standalone) {
    const started = await startProgram(join(REPO, 'dist', 'bin', 'zpl-server.js'), REPO, {
      PORT: '0',
      HOST: '127.0.0.1',
      REDIS_URL: '',
      API_KEYS_FILE: '',
      SHUTDOWN_DELAY_MS: '0',
    });
    expect(started.server, started.output()).to.not.equal(undefined);
    standalone = started.server!;
  }
  return standalone;
}

/** A ts block made ready to run: its store namespace made unique (undefined: it needs a store and none answers). */
async function prepareTs(code: string): Promise<string | undefined> {
  if (code.includes('createPostgresStores')) {
    if (!(await postgresAnswers())) return undefined; // no PostgreSQL at TEST_DATABASE_URL
    const schema = uniqueSchema();
    schemas.push(schema);
    return code.replace(/namespace: '[^']*'/g, `namespace: '${schema}'`);
  }
  if (!code.includes('createRedisStores')) return code;
  if (!(await redisAnswers())) return undefined; // no Redis at REDIS_URL
  const namespace = `zpl-readme-${randomBytes(6).toString('hex')}`;
  namespaces.push(namespace);
  return code.replace(/namespace: '[^']*'/g, `namespace: '${namespace}'`);
}

/** The package packed from this tree (the built dist), once, for the session pages' `npm install`. */
let packed: Promise<string> | undefined;
function packedTarball(): Promise<string> {
  packed ??= run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', root], { cwd: REPO }).then(
    ({ stdout }) => join(root, (JSON.parse(stdout) as { filename: string }[])[0]!.filename),
  );
  return packed;
}

/** A page run as one terminal session, block after block, in a folder of its own (test/helpers/doc-session.ts). */
function describeSession(file: string, markdown: string): void {
  describe(`${file} as one terminal session`, function () {
    this.timeout(600_000); // npm install from the tarball on a busy machine; the bound only ends a hang
    const blocks = readBlocks(markdown);
    const installs = blocks.some((b) => b.lang === 'sh' && !b.skip && /\bnpm install zpl-legacy-compat\b/.test(b.code));
    let session: DocSession | undefined;
    let redis = false;

    before(async () => {
      const dir = mkdtempSync(join(root, 'session-'));
      const tarball = await packedTarball();
      if (!installs) {
        // A page that installs nothing starts where getting started left off: the package installed.
        writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'session', private: true }));
        await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], { cwd: dir });
      }
      const ports = new Map<string, number>();
      for (const port of documentedPorts(markdown)) ports.set(port, await freePort());
      const namespace = `zpl-readme-${randomBytes(6).toString('hex')}`;
      namespaces.push(namespace);
      redis = await redisAnswers();
      session = new DocSession({ dir, tarball, redisUrl: REDIS_URL, namespace, ports });
    });
    after(async () => {
      try {
        await session?.leave();
      } finally {
        session?.kill();
      }
    });

    // Sections that need a Redis: every block of theirs is skipped, saying so, when none answers.
    const needRedis = new Set(blocks.filter((b) => b.code.includes('redis://') && !b.skip).map((b) => b.section));
    for (const block of blocks) {
      const title = `block ${block.index} (${block.lang || 'no language'}, "${block.section}")`;
      if (block.skip !== undefined) {
        it(`${title} is skipped: ${block.skip}`);
        continue;
      }
      if (block.lang === 'json') {
        it(`${title} parses as JSON`, () => {
          expect(() => JSON.parse(block.code) as unknown).to.not.throw();
        });
        continue;
      }
      if (!['sh', 'js', 'ts'].includes(block.lang)) {
        it(`${title} is skipped: not code (a diagram or plain text)`);
        continue;
      }
      it(`${title} ${block.lang === 'sh' ? 'runs' : 'is saved under the name on its first line'}`, async function () {
        if (needRedis.has(block.section) && !redis) {
          console.log(`      (no Redis at ${REDIS_URL}: skipping the section "${block.section}")`);
          this.skip();
        }
        if (block.lang !== 'sh') {
          expect(session!.save(block.code), 'the program names its file on its first line (// name.mjs)').to.equal(
            true,
          );
          return;
        }
        await session!.leave(block.section);
        await session!.run(block.code, block.section);
      });
    }
  });
}

for (const file of documentationFiles()) {
  const markdown = readFileSync(join(REPO, file), 'utf8');
  if (SESSION_MARKER.test(markdown.split('\n')[0]!)) {
    describeSession(file, markdown);
    continue;
  }
  describe(`${file} code blocks`, function () {
    this.timeout(60_000);
    const blocks = readBlocks(markdown);
    let sectionServer: { section: string; server: Server } | undefined;

    /**
     * The section's server, if a block started one, stops when a block of another section, a program of its own
     * section (which starts its own server) or the end of the file comes.
     */
    async function leaveSectionServer(section?: string): Promise<void> {
      if (!sectionServer || sectionServer.section === section) return;
      const { server } = sectionServer;
      sectionServer = undefined;
      expect(await stop(server), `the snippet's server exits by itself after SIGTERM:\n${server.output()}`).to.equal(0);
    }

    after(() => leaveSectionServer());

    for (const block of blocks) {
      const title = `block ${block.index} (${block.lang || 'no language'}, "${block.section}")`;
      if (block.skip !== undefined) {
        it(`${title} is skipped: ${block.skip}`);
        continue;
      }
      if (block.lang === 'json') {
        it(`${title} parses as JSON`, () => {
          expect(() => JSON.parse(block.code) as unknown).to.not.throw();
        });
        continue;
      }
      if (block.lang !== 'ts' && block.lang !== 'sh') {
        it(`${title} is skipped: not code (a diagram or plain text)`);
        continue;
      }

      it(`${title} runs`, async function () {
        // A program replaces the section's server: the shell blocks after it talk to its own.
        await leaveSectionServer(block.lang === 'ts' ? undefined : block.section);
        if (block.lang === 'ts') {
          const code = await prepareTs(block.code);
          if (code === undefined) this.skip();
          const host = makeTsHost(root, code);
          await compileTs(host);
          const started = await startProgram(join(host, 'out', 'snippet.js'), host, {
            PORT: '0',
            REDIS_URL,
            DATABASE_URL,
          });
          if (started.server) {
            sectionServer = { section: block.section, server: started.server };
            return;
          }
          expect(await started.code, started.output()).to.equal(0);
          // Exit status 0 is not enough: an error printed on the way out (a rejected promise logged) is a failure too.
          expect(started.output(), 'no error stack in the output').to.not.match(/^\s+at .+:\d+:\d+\)?$/m);
          return;
        }
        await runShell(block.code, sectionServer?.server ?? (await standaloneServer()), root);
      });

      if (block.lang === 'ts' && /from 'express'/.test(block.code)) {
        // The shell blocks that talk to this program's server: those after it in its section, up to another program.
        const following: Block[] = [];
        for (const next of blocks.slice(blocks.indexOf(block) + 1)) {
          if (next.section !== block.section || next.lang === 'ts') break;
          if (next.lang === 'sh' && next.skip === undefined) following.push(next);
        }
        it(`${title} runs on Express 4 too, printing no deprecation`, async function () {
          const code = await prepareTs(block.code);
          if (code === undefined) this.skip();
          const host = makeTsHost(root, code, { express: 'express4' });
          await compileTs(host);
          const started = await startProgram(join(host, 'out', 'snippet.js'), host, {
            PORT: '0',
            REDIS_URL,
            DATABASE_URL,
          });
          expect(started.server, started.output()).to.not.equal(undefined);
          const server = started.server!;
          try {
            for (const next of following) await runShell(next.code, server, root);
          } finally {
            expect(await stop(server), server.output()).to.equal(0);
          }
          expect(server.output()).to.not.match(/deprecated/i);
        });
      }
    }
  });
}

// What the README and docs/ say about the package, checked against the code and files they describe.
describe('README and docs facts', () => {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const page = (name: string): string => readFileSync(join(REPO, 'docs', name), 'utf8');
  /** A `## title` section of a Markdown text, up to the next `## ` heading. */
  const section = (title: string, text = readme): string => {
    const start = text.indexOf(`\n## ${title}\n`);
    expect(start, `section ${title}`).to.be.greaterThan(-1);
    const end = text.indexOf('\n## ', start + 4);
    return text.slice(start, end < 0 ? undefined : end);
  };

  it('keeps the README to one screenful of sections: at most 300 lines', () => {
    expect(readme.split('\n').length).to.be.at.most(300);
  });

  it('finds the blocks of the README and of docs/mounting.md', () => {
    const run = (b: Block): boolean => !b.skip;
    expect(
      readBlocks(readme)
        .filter((b) => b.section === 'Mounting in an app' && run(b))
        .map((b) => b.lang),
    ).to.deep.equal(['ts', 'sh']);
    expect(
      readBlocks(page('mounting.md'))
        .filter(run)
        .map((b) => b.lang),
    ).to.deep.equal(['ts', 'sh', 'ts']);
    expect(readme).to.contain('express.urlencoded({ extended: false })');
  });

  it("lists the standalone server's variables in the environment table, row for row with its table", () => {
    // server/variables.ts: what the settings readers are typed by and zpl-server --help prints.
    const table = section('Environment variables (standalone server)', page('configuration.md'));
    const rows = [...table.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((m) => m[1]!);
    expect([...rows].sort()).to.deep.equal([...SERVER_VARIABLE_NAMES].sort());
    expect(new Set(rows).size, 'each variable once').to.equal(rows.length);
    for (const name of ['OPS_PORT', 'SHUTDOWN_DELAY_MS', 'LEGACY_CLIENTS', 'REDIS_NAMESPACE', 'PAGE_COMPOSITION']) {
      expect(rows, name).to.include(name);
    }
  });

  it('keeps internal history out: no commit ids, issue numbers or removed exports (bench/README.md keeps the record)', () => {
    for (const file of documentationFiles()) {
      const text = readFileSync(join(REPO, file), 'utf8');
      expect(text, file).to.not.match(/\bcommit [0-9a-f]{6,40}\b/i);
      // Commit ids (hex with digits and letters, 7 to 12 long; key ids are 16).
      expect(text, file).to.not.match(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,12}\b/);
      expect(text, file).to.not.match(/\bissues? #?\d+/i);
      expect(text, file).to.not.match(/no longer exported/i);
    }
  });

  it('runs the CLIs with npx in shell examples (a clone has them in node_modules/.bin only)', () => {
    // A synopsis names the command as installed; everything meant to be typed uses npx.
    const commands = documentationFiles()
      .flatMap((file) => readBlocks(readFileSync(join(REPO, file), 'utf8')))
      .filter((b) => b.lang === 'sh' && !/synopsis/.test(b.skip ?? ''))
      .flatMap((b) => b.code.split('\n'))
      .filter(
        (line) =>
          /^\s*(?:[A-Z_]+=(?:\$\([^)]*\)|(?!\$\()\S+)\s+)*zpl-(?:keys|render|server)\b/.test(line) ||
          /(?:&&|;)\s*zpl-(?:keys|render|server)\b/.test(line),
      );
    expect(commands).to.deep.equal([]);
    expect(section('Quick start')).to.contain('`npx zpl-keys ...`');
  });

  it('names as test prerequisites exactly the Debian packages .ci/run installs', () => {
    // .ci/run and the scripts it runs (`bash .ci/postgres.sh`).
    const ciRun = readFileSync(join(REPO, '.ci', 'run'), 'utf8');
    const ci = [
      ciRun,
      ...[...ciRun.matchAll(/bash \.ci\/([\w-]+\.sh)/g)]
        .map((m) => m[1]!)
        .filter((name, i, all) => all.indexOf(name) === i)
        .map((name) => readFileSync(join(REPO, '.ci', name), 'utf8')),
    ].join('\n');
    const installed = new Set(
      [...ci.matchAll(/apt-get install -y -qq ([a-z0-9. -]+?) >/g)].flatMap((m) => m[1]!.split(' ')),
    );
    expect([...installed].sort()).to.include.members(['chromium', 'poppler-utils', 'postgresql', 'redis-server']);
    const prerequisites = /\*\*Test prerequisites\.\*\*[\s\S]*?\n\n/.exec(section('Quick start'))![0];
    expect(prerequisites).to.contain('.ci/run');
    for (const name of installed) expect(prerequisites, `${name}: installed by .ci/run`).to.contain(`\`${name}\``);
    // Packages a reader might think needed: named only when .ci/run installs them.
    for (const name of ['redis-sentinel', 'redis-tools', 'postgresql', 'haproxy']) {
      if (!installed.has(name))
        expect(prerequisites, `${name}: not installed by .ci/run`).to.not.contain(`\`${name}\``);
    }
  });

  it('gives the client table a "how to point it" column with base URL, HTTP_PROXY and request-hook rows', () => {
    const clients = page('legacy-clients.md');
    expect(clients).to.contain('| kind of client | how to point it | base URL | options |');
    for (const way of [
      'its base URL setting',
      '`HTTP_PROXY=http://host:3000`',
      'a request hook',
      '`LEGACY_CLIENTS=1`',
      '`ANONYMOUS_KEY_ID=<id>`',
    ]) {
      expect(clients, way).to.contain(way);
    }
    expect(clients).to.contain('It never turns on key-less access');
  });

  it('documents zpl-keys update with the flags the CLI takes', async () => {
    const { stdout } = await run(process.execPath, [join(REPO, 'dist', 'bin', 'zpl-keys.js'), '--help']);
    const keys = page('keys-and-limits.md');
    for (const flag of ['--scope', '--rps', '--pages-per-day', '--organization', '--expires', '--revoked']) {
      expect(stdout, `zpl-keys --help: ${flag}`).to.match(new RegExp(`update[\\s\\S]*${flag}`));
      expect(keys, `README: ${flag}`).to.contain(`\`${flag}`);
    }
    expect(keys).to.contain('`--revoked false` lifts a revocation');
  });

  it('shows /healthz as the ops router answers it', async () => {
    const ops = await import('../middleware/index.js');
    const app = ops.createOpsRouter({
      keyStore: ops.createMemoryStores().keyStore,
      pool: () => ({ threads: 2, busy: 0, queued: 0, recycled: 0, queueLimit: 128 }),
    });
    const server = (await import('node:http')).createServer((req, res) =>
      app(req, res, () => {
        res.statusCode = 404;
        res.end();
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      const actual = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as Record<string, unknown>;
      const row = /\| `GET \/healthz` \| [^`]*`(\{[^`]*\})`/.exec(page('operations.md'))![1]!;
      const documented = JSON.parse(row.replace('"version":...', '"version":"x"')) as Record<
        string,
        Record<string, unknown>
      >;
      const shape = (o: Record<string, unknown>): unknown =>
        Object.fromEntries(
          Object.entries(o).map(([k, v]) => [
            k,
            v !== null && typeof v === 'object' ? shape(v as Record<string, unknown>) : typeof v,
          ]),
        );
      expect(shape(documented)).to.deep.equal(shape(actual));
      expect(documented.renderPool).to.deep.equal(actual.renderPool);
    } finally {
      server.close();
    }
  });

  it('lists the key_seeding outcomes the server emits', () => {
    const sources = ['key-seeding.ts', 'server-stores.ts']
      .map((f) => readFileSync(join(REPO, 'server', f), 'utf8'))
      .join('\n');
    const emitted = new Set([...sources.matchAll(/type: 'key_seeding', outcome: '(\w+)'/g)].map((m) => m[1]!));
    expect([...emitted].sort()).to.deep.equal(['failed', 'lost', 'seeded', 'seeded_again']);
    const row = /\| `key_seeding` \|.*\| `outcome` \(([^)]*)\)/.exec(page('operations.md'))![1]!;
    expect([...row.matchAll(/`(\w+)`/g)].map((m) => m[1]!).sort()).to.deep.equal([...emitted].sort());
  });

  it('says how Accept q-values are read, as the router reads them', async () => {
    const { acceptedFormat } = await import('../middleware/http/request-headers.js');
    expect(acceptedFormat('image/png;q=0, application/pdf')).to.equal('pdf');
    expect(acceptedFormat('image/png;q=0.1, application/pdf')).to.equal('png');
    const headers = section('Request headers', page('http-api.md'));
    expect(headers).to.contain('a type with `q=0` is left out (`image/png;q=0, application/pdf` is PDF');
    expect(headers).to.contain('other q-values do not reorder, the first listed type we produce decides');
  });

  it('documents the sub-path reverse proxy, and the pages use no root-absolute URLs', () => {
    expect(page('preview.md')).to.contain('**Behind a reverse proxy under a sub-path.**');
    for (const page of ['index.html', 'shadow.html']) {
      expect(readFileSync(join(REPO, 'web', page), 'utf8'), page).to.not.match(/(?:href|src)="\//);
    }
    for (const script of ['app.ts', 'shadow.ts', 'common.ts']) {
      const code = readFileSync(join(REPO, 'web', 'src', script), 'utf8');
      expect(code, script).to.not.match(/fetch\([`'"]\//);
    }
  });

  it('has the registry page links the README picture needs, and the picture: examples/labels.zpl as we render it', async () => {
    const manifest = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as Record<string, unknown>;
    for (const field of ['repository', 'homepage', 'bugs']) expect(manifest, field).to.have.property(field);
    const picture = /!\[[^\]]*\]\((docs\/images\/[^)]+\.png)\)/.exec(readme)![1]!;
    const { renderPng } = await import('../index.js');
    const drawn = await renderPng(readFileSync(join(REPO, 'examples', 'labels.zpl')), {
      dpmm: 8,
      widthIn: 4,
      heightIn: 1.5,
      index: 0,
    });
    expect(
      Buffer.compare(readFileSync(join(REPO, picture)), Buffer.from(drawn)),
      `${picture} is label 0 of examples/labels.zpl, 4x1.5 in, 8 dpmm`,
    ).to.equal(0);
    expect(readme).to.contain(
      'node dist/bin/zpl-render.js examples/labels.zpl\n--size 4x1.5 -o docs/images/label-one.png',
    );
    expect((manifest.bin as Record<string, string>)['zpl-server']).to.equal('dist/bin/zpl-server.js');
    expect((manifest.scripts as Record<string, string>).start).to.match(
      /^tsc -b .*&& exec node dist\/bin\/zpl-server\.js$/,
    );
  });

  it('describes a container that keeps keys and /metrics out of public view', () => {
    const dockerfile = readFileSync(join(REPO, 'Dockerfile'), 'utf8');
    const compose = readFileSync(join(REPO, 'compose.yaml'), 'utf8');
    expect(dockerfile).to.match(/^FROM node:\d+\.\d+\.\d+-trixie-slim AS runtime$/m);
    expect(dockerfile).to.not.match(/node:20|prepare/);
    expect(dockerfile).to.match(/HEALTHCHECK[\s\S]*\/healthz/);
    expect(dockerfile).to.not.contain("/readyz'");
    expect(compose).to.match(/^\s+API_KEYS_FILE: \/run\/secrets\/zpl-keys$/m);
    expect(compose).to.match(/^\s+OPS_PORT: "9090"$/m);
    expect(compose).to.not.match(/- "9090/);
    const containers = page('containers.md');
    for (const fact of [
      '`/metrics` is not public:',
      'no development key with every scope is ever printed',
      '`HEALTHCHECK` on `/healthz`',
    ]) {
      expect(containers, fact).to.contain(fact);
    }
  });
});
