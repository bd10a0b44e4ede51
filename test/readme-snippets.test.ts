// Every code block of README.md, run as a reader would run it:
// - ```ts: compiled (strict, module NodeNext) in a throw-away host outside the repository whose
//   `zpl-legacy-compat` is this built package, then run. A program that prints `listening on <url>` is a
//   server: the ```sh blocks after it in the same section run against it, then it gets SIGTERM and must
//   exit by itself. Blocks using createRedisStores run against REDIS_URL in a namespace of their own.
// - ```sh: run with bash against the running server of their section, or else against the standalone
//   server (`npm start`'s dist/examples/server.js, its printed dev key put in for `<key>`); port 3000 becomes
//   the server's ephemeral port. Files written with `-o` must be a PNG or PDF, and a `# {...}` or `# [...]`
//   comment after a command is output it must print.
// - ```json: parsed.
// Blocks preceded by `<!-- readme-test: skip (why) -->` are reported as pending with that reason.

import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createClient } from '@keyv/redis';
import { expect } from 'chai';
import { REDIS_URL, redisAnswers } from './helpers/http-redis.js';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');
const DOCUMENTED_ORIGIN = 'http://127.0.0.1:3000';

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
    blocks.push({ index: blocks.length + 1, lang: open[2]!, section, code: body.join('\n'), ...(marker && { skip: marker[1]! }) });
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
function startProgram(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ server?: Server; code: Promise<number | null>; output: () => string }> {
  const child = spawn(process.execPath, [script], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const code = new Promise<number | null>((resolve) => child.once('exit', (exitCode) => resolve(exitCode)));
  return new Promise((resolve) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/\S+)/.exec(output);
      if (!listening) return;
      const key = /dev API key: (\S+)/.exec(output)?.[1];
      resolve({ server: { child, origin: listening[1]!.replace(/\/$/, ''), output: () => output, ...(key && { key }) }, code, output: () => output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
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

/** A host folder whose node_modules links this package and every package the snippet imports. */
function makeTsHost(root: string, code: string): string {
  const host = mkdtempSync(join(root, 'ts-'));
  const modules = join(host, 'node_modules');
  const links: Record<string, string> = { 'zpl-legacy-compat': REPO, '@types/node': join(REPO, 'node_modules', '@types', 'node') };
  for (const [, name] of code.matchAll(/from '((?:@[^/']+\/)?[^/'.][^/']*)/g)) {
    if (name!.startsWith('node:') || name === 'zpl-legacy-compat') continue;
    links[name!] = join(REPO, 'node_modules', name!);
    const types = join(REPO, 'node_modules', '@types', name!.replace(/^@([^/]+)\//, '$1__'));
    if (existsSync(types)) links[`@types/${name!.replace(/^@([^/]+)\//, '$1__')}`] = types;
  }
  for (const [as, target] of Object.entries(links)) {
    mkdirSync(dirname(join(modules, as)), { recursive: true });
    symlinkSync(target, join(modules, as), 'dir');
  }
  writeFileSync(join(host, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(join(host, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', skipLibCheck: true, noEmitOnError: true, outDir: 'out', types: ['node'] },
    include: ['snippet.ts'],
  }));
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
  for (const [, file] of code.matchAll(/-o (\S+\.(?:png|pdf))/g)) {
    const bytes = readFileSync(join(cwd, file!));
    const magic = file!.endsWith('.png') ? '\x89PNG' : '%PDF';
    expect(bytes.subarray(0, 4).toString('latin1'), `${file} is a ${magic.slice(-3)}`).to.equal(magic);
  }
  for (const [, shown] of code.matchAll(/#\s*(\{\S*\}|\[\S*\])/g)) {
    expect(stdout, 'documented output').to.contain(shown!);
  }
}

describe('README code blocks', function () {
  this.timeout(60_000);
  const blocks = readBlocks(readFileSync(join(REPO, 'README.md'), 'utf8'));
  let root: string;
  let standalone: Server | undefined;
  let sectionServer: { section: string; server: Server } | undefined;
  const namespaces: string[] = [];

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'zpl-readme-'));
    writeFileSync(join(root, 'labels.zpl'), '^XA^FO50,50^GB100,100,100^FS^XZ\n^XA^FO50,50^A0N,40,40^FDSecond^FS^XZ\n');
    // Files of the repository the README names, at the same relative paths.
    mkdirSync(join(root, 'examples'));
    writeFileSync(join(root, 'examples', 'labels.zpl'), readFileSync(join(REPO, 'examples', 'labels.zpl')));
  });

  /**
   * The section's server, if a block started one, stops when a block of another section, a program of its own
   * section (which starts its own server) or the end comes.
   */
  async function leaveSectionServer(section?: string): Promise<void> {
    if (!sectionServer || sectionServer.section === section) return;
    const { server } = sectionServer;
    sectionServer = undefined;
    expect(await stop(server), `the snippet's server exits by itself after SIGTERM:\n${server.output()}`).to.equal(0);
  }

  after(async () => {
    await leaveSectionServer();
    if (standalone) await stop(standalone);
    if (namespaces.length > 0) {
      const client = createClient({ url: REDIS_URL });
      await client.connect();
      for (const namespace of namespaces) {
        for await (const keys of client.scanIterator({ MATCH: `${namespace}:*`, COUNT: 100 })) if (keys.length > 0) await client.del(keys);
      }
      client.destroy();
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('finds the blocks of the README, the mounting section included', () => {
    expect(blocks.filter((b) => b.section === 'Mounting the router in your app' && !b.skip).map((b) => b.lang))
      .to.deep.equal(['ts', 'sh', 'ts', 'sh', 'ts']);
  });

  for (const block of blocks) {
    const title = `block ${block.index} (${block.lang || 'no language'}, "${block.section}")`;
    if (block.skip !== undefined) {
      it(`${title} is skipped: ${block.skip}`);
      continue;
    }
    if (block.lang === 'json') {
      it(`${title} parses as JSON`, () => { expect(() => JSON.parse(block.code) as unknown).to.not.throw(); });
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
        let code = block.code;
        if (code.includes('createRedisStores')) {
          if (!(await redisAnswers())) this.skip(); // no Redis at REDIS_URL
          const namespace = `zpl-readme-${randomBytes(6).toString('hex')}`;
          namespaces.push(namespace);
          code = code.replace(/namespace: '[^']*'/g, `namespace: '${namespace}'`);
        }
        const host = makeTsHost(root, code);
        await compileTs(host);
        const started = await startProgram(join(host, 'out', 'snippet.js'), host, { PORT: '0', REDIS_URL });
        if (started.server) {
          sectionServer = { section: block.section, server: started.server };
          return;
        }
        expect(await started.code, started.output()).to.equal(0);
        return;
      }
      let server = sectionServer?.server;
      if (!server) {
        if (!standalone) {
          const started = await startProgram(join(REPO, 'dist', 'examples', 'server.js'), REPO, { PORT: '0', HOST: '127.0.0.1', REDIS_URL: '', API_KEYS_FILE: '' });
          expect(started.server, started.output()).to.not.equal(undefined);
          standalone = started.server!;
        }
        server = standalone;
      }
      await runShell(block.code, server, root);
    });
  }
});
