// The server from the npm package, as a user installs it: the packed tarball installed in an empty folder
// (production dependencies from the registry, so no Express), then `npx zpl-server` renders a label and
// serves the preview page. Every wait ends when a process exits or prints a line.

import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { renderPng } from '../index.js';
import { spawnWatched, type WatchedProcess } from './helpers/server-process.js';

const run = promisify(execFile);
const REPO = process.cwd();
const ZPL = '^XA^FO10,10^GB80,80,40^FS^XZ';

describe('the packed package: `npx zpl-server` without Express', function () {
  this.timeout(900_000); // npm pack and install on a shared machine; the bound only ends a hang
  const dir = mkdtempSync(join(tmpdir(), 'zpl-package-'));
  let server: WatchedProcess | undefined;
  after(() => {
    if (server && server.child.exitCode === null) process.kill(-server.child.pid!, 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('installs from the tarball in an empty folder and renders a label', async () => {
    // The tree `npm test` has just built; prepack would rebuild it under the running tests' feet.
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: REPO,
    });
    const tarball = join(dir, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
    const consumer = join(dir, 'consumer');
    mkdirSync(consumer);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', tarball], { cwd: consumer });
    expect(existsSync(join(consumer, 'node_modules', 'zpl-legacy-compat', 'dist', 'bin', 'zpl-server.js'))).to.equal(
      true,
    );
    expect(existsSync(join(consumer, 'node_modules', 'express')), 'Express is not installed').to.equal(false);
    expect(existsSync(join(consumer, 'node_modules', 'zpl-legacy-compat', 'CHANGELOG.md')), 'the changelog').to.equal(
      true,
    );
    // `npx zpl-legacy-compat` (the package's own name) runs the same server.
    expect(readlinkSync(join(consumer, 'node_modules', '.bin', 'zpl-legacy-compat'))).to.match(
      /zpl-legacy-compat\/dist\/bin\/zpl-server\.js$/,
    );

    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      PORT: '0',
      HOST: '127.0.0.1',
      SHUTDOWN_DELAY_MS: '0',
    };
    server = spawnWatched('npx', ['--no-install', 'zpl-server'], env, {
      cwd: consumer,
      cleanEnv: true,
      detached: true,
    });
    const port = Number(/:(\d+)$/.exec(await server.waitFor(/^listening on http:\/\/127\.0\.0\.1:\d+$/))![1]);
    const key = (await server.waitFor(/^dev API key: /)).slice('dev API key: '.length);
    const res = await fetch(`http://127.0.0.1:${port}/compatibility/legacy/v1/printers/8dpmm/labels/2x1/0`, {
      method: 'POST',
      headers: { 'X-API-Key': key },
      body: ZPL,
    });
    expect(res.status, await res.clone().text()).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('image/png');
    const expected = Buffer.from(await renderPng(ZPL, { dpmm: 8, widthIn: 2, heightIn: 1 }));
    expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), expected)).to.equal(0);
    expect((await fetch(`http://127.0.0.1:${port}/`)).status, 'the preview page ships too').to.equal(200);

    process.kill(-server.child.pid!, 'SIGTERM'); // npx and the server it started
    await server.closed; // every holder of the output pipes has exited
    expect(
      server.lines.some((l) => l.includes('"msg":"SIGTERM: shutting down"')),
      'the server shut down gracefully',
    ).to.equal(true);
  });
});
