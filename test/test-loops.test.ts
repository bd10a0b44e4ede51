// The two test loops (CONTRIBUTING.md): test/suites.json says which files need services, the unit run refuses
// services to every other file, one file runs alone under the default config, and a file that leaves handles
// open fails naming them instead of hanging the run.

import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect } from 'chai';
import { servicePorts, socketRefusal, spawnRefusal } from './setup/unit-rules.js';

const REPO = process.cwd();
const require = createRequire(import.meta.url);
const MOCHA = join(REPO, 'node_modules', 'mocha', 'bin', 'mocha.js');

/** What a listed file may need: each reason in test/suites.json starts with one of these. */
const NEEDS = ['Redis', 'PostgreSQL', 'Chromium', 'poppler', 'npm', 'haproxy', 'processes', 'slow'];

interface MochaConfig {
  spec?: string[];
  ignore?: string[];
  require?: string[];
  exit?: boolean;
}

const suites = JSON.parse(readFileSync(join(REPO, 'test', 'suites.json'), 'utf8')) as {
  integration: Record<string, string>;
};
const base = JSON.parse(readFileSync(join(REPO, '.mocharc.json'), 'utf8')) as MochaConfig;
const unit = require(join(REPO, 'test', 'mocharc.unit.cjs')) as MochaConfig;
const integration = require(join(REPO, 'test', 'mocharc.integration.cjs')) as MochaConfig;
const testFiles = readdirSync(join(REPO, 'test')).filter((name) => name.endsWith('.test.ts'));

/** Runs mocha on one compiled fixture with the given root hook plugins; resolves with its exit code and output. */
function runFixture(fixture: string, plugins: string[]): Promise<{ code: number | null; output: string }> {
  const args = [MOCHA, '--no-config', '--timeout', '60000'];
  for (const plugin of plugins) args.push('--require', plugin);
  args.push(join('dist', 'test', 'setup', 'fixtures', fixture));
  const child = spawn(process.execPath, args, { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, output })));
}

describe('test loops: which run a test file belongs to', () => {
  it('test/suites.json lists existing test files, each with what it needs', () => {
    for (const [file, needs] of Object.entries(suites.integration)) {
      expect(testFiles, `${file} is listed in test/suites.json`).to.include(file);
      expect(
        NEEDS.some((need) => needs.startsWith(need)),
        `${file}: "${needs}" starts with one of ${NEEDS.join(', ')}`,
      ).to.equal(true);
    }
  });

  it('the unit and the integration run together run every test file once', () => {
    const compiled = (file: string): string => `dist/test/${file.replace(/\.ts$/, '.js')}`;
    expect(unit.spec).to.deep.equal(['dist/test/**/*.test.js']);
    expect([...unit.ignore!].sort()).to.deep.equal([...integration.spec!].sort());
    expect(integration.spec).to.deep.equal(Object.keys(suites.integration).map(compiled));
    expect(Object.keys(suites.integration).length).to.be.below(testFiles.length);
  });

  it('one file runs alone: the default config names no files and does not exit by force', () => {
    expect(base.spec).to.equal(undefined);
    expect(base.exit).to.equal(undefined);
    expect(unit.exit).to.equal(undefined);
    expect(integration.exit).to.equal(undefined);
    expect(base.require).to.include('dist/test/setup/leaks.js');
    expect(unit.require).to.deep.equal([...base.require!, 'dist/test/setup/unit-guard.js']);
    expect(integration.require).to.deep.equal(base.require);
  });
});

describe('test loops: the unit run refuses services', () => {
  it('refuses other hosts and the services’ ports, and allows the rest of loopback', () => {
    const ports = servicePorts({
      REDIS_URL: 'redis://127.0.0.1:6400',
      TEST_DATABASE_URL: 'postgres://postgres@localhost:5433/postgres',
      TEST_REDIS_CLUSTER_NODES: '127.0.0.1:7001,127.0.0.1:7002',
    });
    expect(socketRefusal({ host: '127.0.0.1', port: 6379 }, ports)).to.contain('Redis');
    expect(socketRefusal({ host: 'localhost', port: 5432 }, ports)).to.contain('PostgreSQL');
    expect(socketRefusal({ host: '127.0.0.1', port: 6400 }, ports)).to.contain('REDIS_URL');
    expect(socketRefusal({ host: '::1', port: 5433 }, ports)).to.contain('TEST_DATABASE_URL');
    expect(socketRefusal({ host: '127.0.0.1', port: 7002 }, ports)).to.contain('TEST_REDIS_CLUSTER_NODES');
    expect(socketRefusal({ host: '10.0.0.5', port: 80 }, ports)).to.contain('another host');
    expect(socketRefusal({ host: 'registry.npmjs.org', port: 443 }, ports)).to.contain('another host');
    expect(socketRefusal({ path: '/var/run/postgresql/.s.PGSQL.5432' }, ports)).to.contain('unix socket');
    expect(socketRefusal({ host: '127.0.0.1', port: 41234 }, ports)).to.equal(undefined);
    expect(socketRefusal({ host: '::ffff:127.0.0.1', port: 41234 }, ports)).to.equal(undefined);
    expect(socketRefusal({ port: 41234 }, ports)).to.equal(undefined);
  });

  it('refuses every child process: a unit test runs in the test process', () => {
    expect(spawnRefusal('npm', ['pack'])).to.equal('starting a process (npm pack)');
    expect(spawnRefusal(process.execPath, ['dist/bin/zpl-render.js'])).to.contain('zpl-render.js');
  });

  it('fails a unit file that reaches Redis or starts npm, naming the file, and passes the rest', async () => {
    const { code, output } = await runFixture('reaches-services.fixture.js', [
      'dist/test/setup/leaks.js',
      'dist/test/setup/unit-guard.js',
    ]);
    expect(code, output).to.equal(2);
    // .ci/run exports REDIS_URL, which names the port's owner in the message.
    expect(output).to.match(
      /a connection to Redis( \(REDIS_URL\))? \(127\.0\.0\.1:6379\) is not allowed in a unit test/,
    );
    expect(output).to.match(/starting a process \(npm --version\) is not allowed in a unit test/);
    expect(output).to.contain('list the file in test/suites.json');
    expect(output).to.match(/1 passing/);
  });
});

describe('test loops: .ci/run', () => {
  it('adds the two runs’ summaries into one "N passed, N failed" line', async () => {
    const script = readFileSync(join(REPO, '.ci', 'run'), 'utf8');
    const parser = script.split('\n').filter((line) => /^(passed|failed)=\$\(/.test(line));
    expect(parser).to.have.length(2);
    const dir = mkdtempSync(join(tmpdir(), 'zpl-ci-log-'));
    try {
      const log = join(dir, 'log');
      writeFileSync(
        log,
        [
          '    ✔ a case that prints "  3 passing" in its title',
          '  721 passing (2m)',
          '  2 pending',
          '  2 failing',
          '  1) a failure',
          '     AssertionError: 9 failing',
          '  412 passing (11m)',
          '  5 pending',
          '',
        ].join('\n'),
      );
      const child = spawn('bash', ['-c', `log=${log}\n${parser.join('\n')}\necho "$passed passed, $failed failed"`]);
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      await new Promise((resolve) => child.once('close', resolve));
      expect(output.trim()).to.equal('1133 passed, 2 failed');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('test loops: leaked handles', () => {
  it('fail the file that left them, naming each and where it was made, and the run still ends', async () => {
    const { code, output } = await runFixture('leaves-handles.fixture.js', ['dist/test/setup/leaks.js']);
    expect(code, output).to.equal(1);
    expect(output).to.contain('leaves-handles.fixture.js left 3 handle(s) open after its tests');
    const during = '\\n\\s+during "a file that forgets to close what it opened starts a server, [^"]+"';
    const at = '\\n\\s+made at .*leaves-handles\\.fixture\\.js:\\d+';
    expect(output).to.match(new RegExp(`a server listening on 127\\.0\\.0\\.1:\\d+${during}${at}`));
    expect(output).to.match(new RegExp(`a timer \\(setInterval, 60000 ms calling poll\\(\\)\\)${during}${at}`));
    expect(output).to.match(new RegExp(`a child process \\(pid \\d+: .*node -e setInterval.*${during}${at}`));
    expect(output).to.match(/2 passing/);
  });
});
