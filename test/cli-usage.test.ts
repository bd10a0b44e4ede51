// The three CLIs' command lines: `--help` and `--version` answer and start nothing (no listener, no store
// connection, no file written), the usage names every flag each takes and every variable each reads, and every bad
// command line is one `ERROR: ...` line naming the flag or argument at fault, with exit status 2.

import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STORE_BACKENDS } from '../server/store-backends.js';
import { SERVER_VARIABLE_NAMES } from '../server/variables.js';

const REPO = process.cwd();
const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
const CLIS = ['zpl-server', 'zpl-render', 'zpl-keys'] as const;
type Cli = (typeof CLIS)[number];

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a CLI to its end (a server that started would not end: the test's timeout says so). */
function runCli(cli: Cli, args: string[], env: Record<string, string>, cwd: string): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO, 'dist', 'bin', `${cli}.js`), ...args], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
    });
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The long flag names in a CLI's FLAGS table (its source), and the store flags zpl-keys makes from the backends. */
function flagTable(cli: Cli): string[] {
  if (cli === 'zpl-server') return ['help', 'version']; // its settings are variables
  const source = readFileSync(join(REPO, 'bin', `${cli}.ts`), 'utf8');
  const table = /const FLAGS[^=]*= \{\n([\s\S]*?)\n\}/.exec(source)?.[1] ?? '';
  const names = [...table.matchAll(/^ {2}'?([a-z][a-z-]*)'?: \{/gm)].map((m) => m[1]!);
  if (cli === 'zpl-keys') names.push(...STORE_BACKENDS.flatMap((b) => (b.keysFlag ? [b.keysFlag] : [])));
  return names;
}

/** Every variable the standalone server reads: its settings readers and the store table (as the docs test finds them). */
function serverVariables(): Set<string> {
  const sources = readdirSync(join(REPO, 'server'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(join(REPO, 'server', f), 'utf8'))
    .join('\n');
  return new Set(
    [
      ...sources.matchAll(/env\.([A-Z_]+)|\(\s*env,\s*'([A-Z_]+)'|variable: '([A-Z_]+)'|companions: \['([A-Z_]+)'/g),
    ].map((m) => m[1] ?? m[2] ?? m[3] ?? m[4]!),
  );
}

describe('CLIs: --help, --version and bad command lines', function () {
  this.timeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'zpl-cli-usage-'));
  writeFileSync(join(dir, 'label.zpl'), '^XA^FO10,10^GB80,80,40^FS^XZ');
  writeFileSync(join(dir, 'keys.json'), '[]');
  /** A stand-in Redis that counts the connections made to it: a CLI that started something would connect. */
  let redis: net.Server;
  let connections = 0;
  let env: Record<string, string>;
  before(async () => {
    redis = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => redis.listen(0, '127.0.0.1', resolve));
    env = {
      REDIS_URL: `redis://127.0.0.1:${(redis.address() as net.AddressInfo).port}`,
      REDIS_CLUSTER_NODES: '',
      REDIS_SENTINELS: '',
      DATABASE_URL: '',
      API_KEYS_FILE: '',
      STORE_NAMESPACE: '',
      REDIS_NAMESPACE: '',
      PORT: '0',
      HOST: '127.0.0.1',
    };
  });
  after(() => {
    redis.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const files = (): string[] => readdirSync(dir).sort();

  for (const cli of CLIS) {
    it(`${cli} --help prints its usage and exits 0, starting nothing`, async () => {
      for (const help of ['--help', '-h']) {
        // With arguments that would render, write or serve: --help comes first.
        const args =
          cli === 'zpl-render' ? ['label.zpl', '-o', 'out.png', help] : cli === 'zpl-keys' ? ['list', help] : [help];
        const result = await runCli(cli, args, env, dir);
        expect([result.status, result.stderr], help).to.deep.equal([0, '']);
        expect(result.stdout).to.match(new RegExp(`^usage: ${cli} `));
        expect(result.stdout).to.not.match(/^(listening on|dev API key:) /m);
      }
      expect(connections, 'connections to the store').to.equal(0);
      expect(files(), 'files written').to.deep.equal(['keys.json', 'label.zpl']);
    });

    it(`${cli} --version prints the package version and exits 0`, async () => {
      const result = await runCli(cli, ['--version'], env, dir);
      expect(result).to.deep.equal({ status: 0, stdout: `${cli} ${VERSION}\n`, stderr: '' });
      expect(connections).to.equal(0);
    });

    it(`${cli} --help names every flag it takes, and takes every flag it names`, async () => {
      const usage = (await runCli(cli, ['--help'], env, dir)).stdout;
      const table = flagTable(cli);
      expect(table.length, 'flags in the table').to.be.at.least(2);
      for (const flag of table) expect(usage, `--${flag}`).to.contain(`--${flag}`);
      for (const [, flag] of usage.matchAll(/(?<![\w-])--([a-z][a-z-]*)/g))
        expect(table, `--${flag} in the usage`).to.include(flag);
    });
  }

  it("zpl-server --help names every variable of the server's table and no other, and the server reads each", async () => {
    const usage = (await runCli('zpl-server', ['--help'], env, dir)).stdout;
    const named = new Set([...usage.matchAll(/\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|PORT|HOST)\b/g)].map((m) => m[1]!));
    expect([...named].sort()).to.deep.equal([...SERVER_VARIABLE_NAMES].sort());
    // The readers are typed by the table (reading a variable it lacks does not compile); none of its rows is unread.
    const read = serverVariables();
    expect(read.size).to.be.greaterThan(35);
    expect(SERVER_VARIABLE_NAMES.filter((name) => !read.has(name))).to.deep.equal([]);
    expect([...read].filter((name) => !(SERVER_VARIABLE_NAMES as readonly string[]).includes(name))).to.deep.equal([]);
  });

  it('zpl-keys --help names the variables it reads and says what a key file keeps', async () => {
    const usage = (await runCli('zpl-keys', ['--help'], env, dir)).stdout;
    const variables = STORE_BACKENDS.flatMap((b) => (b.variable ? [b.variable, ...(b.companions ?? [])] : []));
    for (const name of [...variables, 'STORE_NAMESPACE', 'REDIS_NAMESPACE', 'API_KEYS_FILE'])
      expect(usage, name).to.contain(name);
    expect(usage).to.not.contain('kept in Redis');
    expect(usage).to.match(/A store \(Redis, PostgreSQL\) keeps only its SHA-256; a key file keeps the key\s+itself/);
  });

  /** Ten bad command lines per CLI, each with what its one line must name. */
  const BAD: Record<Cli, [args: string[], names: string][]> = {
    'zpl-server': [
      [['--port', '3000'], 'PORT=3000'],
      [['--port=8080'], 'PORT=8080'],
      [['--log-level', 'debug'], 'LOG_LEVEL=debug'],
      [['--redis-url=redis://127.0.0.1:6379'], 'REDIS_URL=redis://127.0.0.1:6379'],
      [['-p'], 'unknown option -p'],
      [['--verbose'], 'unknown option --verbose'],
      [['-V'], 'unknown option -V'],
      [['--help=yes'], 'unknown option --help=yes'],
      [['start'], 'unexpected argument start'],
      [['config.json'], 'unexpected argument config.json'],
    ],
    'zpl-render': [
      [['label.zpl', '--rps', '-3'], 'unknown option --rps'],
      [['label.zpl', '--dpmm'], '--dpmm needs a value: 6, 8, 12 or 24'],
      [['label.zpl', '--dpmm', '9'], '--dpmm takes 6, 8, 12 or 24 (dots per millimetre), not 9'],
      [['label.zpl', '--index', '-1'], '--index takes a label index, 0 for the first, not -1'],
      [['label.zpl', '--size', '20x6'], '--size takes WIDTHxHEIGHT in inches, each from 0.001 to 15, not 20x6'],
      [
        ['label.zpl', '--format', 'gif'],
        '--format takes png, pdf, json, zpl, ipl, epl, dpl, sbpl, pcl5 or pcl6, not gif',
      ],
      [['label.zpl', '--rotation', '45'], '--rotation takes 0, 90, 180 or 270 (degrees), not 45'],
      [['label.zpl', '--lint=yes'], '--lint is a switch and takes no value, not yes'],
      [['missing.zpl', '-o', 'out.png'], 'cannot read missing.zpl: no such file'],
      [['label.zpl', 'other.zpl'], 'unexpected argument other.zpl'],
      [['-o', 'out.png'], 'a ZPL file to render is needed'],
      [['label.zpl', '--target-dpmm', '12'], '--target-dpmm and --formatter need --format zpl'],
    ],
    'zpl-keys': [
      [['--file', 'keys.json', 'create', '--scope', 'all', '--rps', '-3'], '--rps takes a positive whole number'],
      [['--file', 'keys.json', 'create', '--scope', 'gold'], '--scope takes all, pdf or png, not gold'],
      [['--file', 'keys.json', 'create'], 'create needs --scope: all, pdf or png'],
      [['--file', 'keys.json', 'create', '--scope', 'all', '--pages-per-day'], '--pages-per-day needs a value'],
      [['--file', 'keys.json', 'create', '--scope', 'all', '--json'], '--json is not an option of create'],
      [['--file', 'keys.json', 'create', '--scope', 'all', '--expires', 'soon'], '--expires takes an ISO 8601 date'],
      [['--file', 'missing.json', 'list'], '--file missing.json does not exist'],
      [['--redis', 'notaurl', 'list'], '--redis must be a redis:// or rediss:// URL'],
      [['--file', 'keys.json', 'revoke'], 'revoke needs a key id or the key itself'],
      [['--file', 'keys.json', 'frobnicate'], 'unknown command frobnicate'],
      [['--file', 'keys.json', '--bogus', 'list'], 'unknown option --bogus'],
      [[], 'a command is needed'],
    ],
  };

  for (const cli of CLIS) {
    it(`${cli}: ${BAD[cli].length} bad command lines, each one ERROR line naming what is wrong, exit status 2`, async () => {
      expect(BAD[cli].length).to.be.at.least(10);
      for (const [args, names] of BAD[cli]) {
        const result = await runCli(cli, args, env, dir);
        const invocation = `${cli} ${args.join(' ')}`;
        expect(result.status, invocation).to.equal(2);
        expect(result.stdout, invocation).to.equal('');
        expect(result.stderr, invocation).to.match(/^ERROR: [^\n]+\n$/);
        expect(result.stderr, invocation).to.contain(names);
      }
      expect(connections, 'connections to the store').to.equal(0);
      expect(files(), 'files written').to.deep.equal(['keys.json', 'label.zpl']);
      expect(readFileSync(join(dir, 'keys.json'), 'utf8')).to.equal('[]');
    });
  }
});
