import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { render } from '../renderer/render.js';
import { decodePng } from './helpers/png.js';

const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/zpl-render.js');
const zpl = '^XA^FO10,10^GB100,100,10^FS^XZ^XA^FO0,0^GB50,50,50^FS^XZ';

function run(args: string[], input?: string) {
  return spawnSync(process.execPath, [cli, ...args], { input: input === undefined ? undefined : Buffer.from(input) });
}

describe('zpl-render CLI', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zpl-cli-'));
  const file = path.join(dir, 'label.zpl');
  fs.writeFileSync(file, zpl);
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes the same PNG bytes as the library for the same inputs', async () => {
    const out = path.join(dir, 'out.png');
    const r = run([file, '--dpmm', '8', '--size', '2x3', '--index', '1', '--rotation', '90', '-o', out]);
    expect(r.status, r.stderr.toString()).to.equal(0);
    const lib = await render(zpl, { dpmm: 8, widthIn: 2, heightIn: 3, format: 'png', index: 1, rotation: 90 });
    expect(Buffer.compare(fs.readFileSync(out), Buffer.from(lib.body))).to.equal(0);
  });

  it('reads standard input and writes to standard output', () => {
    const r = run(['-', '--size', '1x1', '--quality', 'bitonal'], zpl);
    expect(r.status).to.equal(0);
    const img = decodePng(r.stdout);
    expect([img.width, img.height, img.bitDepth]).to.deep.equal([203, 203, 1]);
  });

  it('renders all labels into one PDF when --format pdf has no --index', () => {
    const r = run([file, '--format', 'pdf']);
    expect(r.status).to.equal(0);
    expect(r.stdout.toString('latin1').match(/\/Type \/Page\b/g)).to.have.length(2);
  });

  it('writes the vector PDF by default and the raster one under --pdf raster, the same bytes as the library', async () => {
    for (const mode of ['vector', 'raster'] as const) {
      const r = run(mode === 'vector' ? [file, '--format', 'pdf'] : [file, '--format', 'pdf', '--pdf', mode]);
      expect(r.status, r.stderr.toString()).to.equal(0);
      const lib = await render(zpl, { dpmm: 8, widthIn: 4, heightIn: 6, format: 'pdf', pdf: mode });
      expect(Buffer.compare(r.stdout, Buffer.from(lib.body)), mode).to.equal(0);
      expect(/\/Subtype \/Image/.test(r.stdout.toString('latin1')), mode).to.equal(mode === 'raster');
    }
    const bad = run([file, '--format', 'pdf', '--pdf', 'svg']);
    expect([bad.status, bad.stderr.toString()]).to.deep.equal([2, 'ERROR: --pdf takes vector or raster, not svg\n']);
  });

  it('prints warnings with line:column under --lint', () => {
    const r = run(['-', '--lint', '-o', path.join(dir, 'lint.png')], '^XA\n^FO10,10^GB99999,5^FS\n^XZ');
    expect(r.status).to.equal(0);
    expect(r.stderr.toString().trim()).to.equal(
      '2:12 15|5|^GB|1|Value 99999 is greater than maximum value 32000; used 32000 instead',
    );
  });

  it('prints the first 100 diagnostics under --lint, then a count of the rest by command', () => {
    // 130 unknown ^QQ and 5 unknown ^QZ on line 1: 100 kept, then 30 ^QQ and 5 ^QZ counted.
    const doc = `^XA${'^QQ'.repeat(130)}${'^QZ'.repeat(5)}^XZ`;
    const r = run(['-', '--lint', '-o', path.join(dir, 'many.png')], doc);
    expect(r.status).to.equal(0);
    const lines = r.stderr.toString().trim().split('\n');
    expect(lines).to.have.length(101);
    expect(lines[99]).to.equal('1:301 300|3|^QQ||Unknown command ^QQ; ignored');
    expect(lines[100]).to.equal('and 35 more: ^QQ 30, ^QZ 5');
    // Without --lint, nothing: the count belongs to the linter's output.
    expect(run(['-', '-o', path.join(dir, 'many.png')], doc).stderr.toString()).to.equal('');
  });

  it('exits non-zero with an ERROR line for bad input', () => {
    const r = run([file, '--index', '7']);
    expect(r.status).to.not.equal(0);
    expect(r.stderr.toString()).to.equal('ERROR: Requested 8th label but ZPL only generated 2 labels\n');
    const d = run([file, '--dpmm', '9']);
    expect(d.status).to.equal(2);
    expect(d.stderr.toString()).to.equal('ERROR: --dpmm takes 6, 8, 12 or 24 (dots per millimetre), not 9\n');
    const m = run([path.join(dir, 'missing.zpl')]);
    expect([m.status, m.stderr.toString()]).to.deep.equal([
      2,
      `ERROR: cannot read ${path.join(dir, 'missing.zpl')}: no such file\n`,
    ]);
  });
});

describe('zpl-render CLI: refusals', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zpl-cli-refuse-'));
  const file = path.join(dir, 'label.zpl');
  fs.writeFileSync(file, zpl);
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('refuses an unknown --quality (and takes the known ones in any case)', () => {
    const r = run([file, '--quality', 'sepia', '-o', path.join(dir, 'q.png')]);
    expect(r.status).to.equal(2);
    expect(r.stderr.toString()).to.equal('ERROR: --quality takes grayscale or bitonal, not sepia\n');
    expect(fs.existsSync(path.join(dir, 'q.png'))).to.equal(false);
    const ok = run([file, '--quality', 'Bitonal', '-o', path.join(dir, 'q.png')]);
    expect(ok.status, ok.stderr.toString()).to.equal(0);
    expect(decodePng(fs.readFileSync(path.join(dir, 'q.png'))).bitDepth).to.equal(1);
  });

  it('says which file it cannot write', () => {
    const missing = path.join(dir, 'no', 'such', 'dir', 'out.png');
    const r = run([file, '-o', missing]);
    expect(r.status).to.equal(1);
    expect(r.stderr.toString()).to.equal(`ERROR: cannot write ${missing}: no such directory\n`);
    const isDir = run([file, '-o', dir]);
    expect(isDir.stderr.toString()).to.equal(`ERROR: cannot write ${dir}: is a directory\n`);
  });

  it('does not write PNG bytes to a terminal without -o', function () {
    // `script` (util-linux) gives the CLI a pseudo-terminal as standard output.
    const probe = spawnSync('script', ['--version']);
    if (probe.error || probe.status !== 0) this.skip();
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const r = spawnSync('script', ['-qec', `${quote(process.execPath)} ${quote(cli)} ${quote(file)}`, '/dev/null']);
    const seen = r.stdout.toString('latin1');
    expect(r.status).to.equal(2);
    expect(seen).to.contain('ERROR: will not write PNG bytes to a terminal; use -o FILE or a pipe');
    expect(seen).to.not.contain('IHDR');
    // Through a pipe the bytes flow as before.
    const piped = run([file]);
    expect(piped.status).to.equal(0);
    expect(decodePng(piped.stdout).width).to.equal(812);
  });

  it('prints the current date in a ^FC clock field', async () => {
    const clock = '^XA^FO10,10^A0N,30,30^FC%^FD%Y-%m-%d^FS^XZ';
    const day = () => new Date().toISOString().slice(0, 10);
    const before = day();
    const r = run(['-', '--size', '2x1'], clock);
    const after = day();
    expect(r.status, r.stderr.toString()).to.equal(0);
    // The run may cross midnight: the CLI's date is the one before it or the one after.
    const literal = async (d: string) =>
      decodePng(
        (
          await render(`^XA^FO10,10^A0N,30,30^FD${d}^FS^XZ`, {
            dpmm: 8,
            widthIn: 2,
            heightIn: 1,
            format: 'png',
            index: 0,
          })
        ).body,
      ).gray;
    const got = decodePng(r.stdout).gray;
    const matches = [
      Buffer.compare(Buffer.from(got), Buffer.from(await literal(before))),
      Buffer.compare(Buffer.from(got), Buffer.from(await literal(after))),
    ];
    expect(matches).to.include(0);
  });
});

describe('zpl-keys CLI: refusals', () => {
  const keysCli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/zpl-keys.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zpl-keys-refuse-'));
  const keys = (args: string[]) =>
    spawnSync(process.execPath, [keysCli, ...args], { env: { ...process.env, REDIS_URL: '', API_KEYS_FILE: '' } });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('requires --scope to create a key', () => {
    const file = path.join(dir, 'keys.json');
    fs.writeFileSync(file, '[]');
    const r = keys(['--file', file, 'create']);
    expect(r.status).to.equal(2);
    expect(r.stderr.toString()).to.equal('ERROR: create needs --scope: all, pdf or png\n');
    expect(fs.readFileSync(file, 'utf8')).to.equal('[]');
    const ok = keys(['--file', file, 'create', '--scope', 'png']);
    expect(ok.status, ok.stderr.toString()).to.equal(0);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')))
      .to.have.length(1)
      .and.to.have.nested.property('[0].scope', 'png');
  });

  it('refuses a --file that does not exist, for every command, and creates nothing', () => {
    const missing = path.join(dir, 'typo.json');
    for (const args of [['create', '--scope', 'all'], ['list'], ['revoke', 'abcdef0123']]) {
      const r = keys(['--file', missing, ...args]);
      expect(r.status, args.join(' ')).to.equal(2);
      expect(r.stderr.toString()).to.match(
        new RegExp(`^ERROR: --file ${missing.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} does not exist`),
      );
    }
    expect(fs.existsSync(missing)).to.equal(false);
  });
});
