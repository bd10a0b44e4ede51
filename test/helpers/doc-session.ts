// A documentation page run as one terminal session (test/readme-snippets.test.ts): its blocks in order, in one folder
// of its own, as a reader types them, a command that keeps running (a server) in a terminal of its own until its
// section ends, when it gets Ctrl-C (SIGINT to its process group) and must exit by itself.
//
// What the test puts in, so that the page runs here as written and never on anyone else's ports or keys:
// - `npm install zpl-legacy-compat` installs the package packed from this tree (the registry may not have this
//   version yet); a page that installs nothing starts in a folder where the package is installed already.
// - Ports: every documented port (`127.0.0.1:3001`, `PORT=3002`; 3000 also as the default `PORT`) becomes a free one.
// - `redis://127.0.0.1:6379` becomes the test Redis, and every command gets a STORE_NAMESPACE of its own; no store
//   variable of the test's own environment leaks in.
// - `<key>` becomes the last key the session printed (`dev API key: ...` or zpl-keys' `key: ...`).
// A ```js or ```ts block whose first line is `// NAME` (`// render.mjs`) is saved as NAME for a later command.
// After a command: each `-o FILE.png` / `.pdf` written must be one, and each `# {...}` / `# [...]` comment, and each
// `# → TEXT` comment (in order), is output the block must print.

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect } from 'chai';

/** The first line of a page run as one session. */
export const SESSION_MARKER = /^<!-- readme-test: session \(([^)]*)\) -->$/m;

/** Checks what a shell block wrote and printed against what the page says it does. */
export function checkShellResults(code: string, stdout: string, cwd: string): void {
  for (const [, file] of code.matchAll(/-o (\S+\.(?:png|pdf))/g)) {
    const bytes = readFileSync(join(cwd, file!));
    const magic = file!.endsWith('.png') ? '\x89PNG' : '%PDF';
    expect(bytes.subarray(0, 4).toString('latin1'), `${file} is a ${magic.slice(-3)}`).to.equal(magic);
  }
  for (const [, shown] of code.matchAll(/#\s*(\{\S*\}|\[\S*\])/g)) {
    expect(stdout, 'documented output').to.contain(shown!);
  }
  let from = 0;
  for (const [, shown] of code.matchAll(/#\s*→\s*(.+?)\s*$/gm)) {
    const at = stdout.indexOf(shown!, from);
    expect(at, `documented output "${shown}" (in order) in:\n${stdout}`).to.be.greaterThan(-1);
    from = at + shown!.length;
  }
}

/** A command of the session that is still running (a server), in a process group of its own. */
interface Running {
  section: string;
  child: ChildProcess;
  output: string[];
  closed: Promise<number | null>;
}

export interface SessionSetup {
  /** The session's folder (empty, or with the package installed). */
  dir: string;
  /** The packed package, installed for `npm install zpl-legacy-compat`. */
  tarball: string;
  /** The Redis the page's `redis://127.0.0.1:6379` stands for. */
  redisUrl: string;
  /** STORE_NAMESPACE for every command. */
  namespace: string;
  /** Documented port -> a free port here. */
  ports: Map<string, number>;
}

/** Documented ports of a page: `127.0.0.1:3001`, `localhost:3001`, `PORT=3001` (3000 always: the default PORT). */
export function documentedPorts(markdown: string): string[] {
  const ports = new Set(['3000']);
  for (const [, a, b] of markdown.matchAll(/\b(?:127\.0\.0\.1|localhost):(3\d{3})\b|\bPORT=(3\d{3})\b/g))
    ports.add((a ?? b)!);
  return [...ports];
}

export class DocSession {
  #setup: SessionSetup;
  #key: string | undefined;
  #running: Running[] = [];

  constructor(setup: SessionSetup) {
    this.#setup = setup;
  }

  /** The block's text as it runs here. */
  #script(code: string): string {
    const { tarball, redisUrl, ports } = this.#setup;
    let script = code
      .replace(/\bnpm install zpl-legacy-compat\b/g, `npm install ${tarball}`)
      .replaceAll('redis://127.0.0.1:6379', redisUrl)
      .replace(
        /\b(127\.0\.0\.1:|localhost:|PORT=)(3\d{3})\b/g,
        (_whole, before: string, port: string) => `${before}${ports.get(port) ?? port}`,
      );
    if (script.includes('<key>')) {
      expect(this.#key, 'a key printed earlier in the session for <key>').to.not.equal(undefined);
      script = script.replaceAll('<key>', this.#key!);
    }
    return script;
  }

  #environment(): NodeJS.ProcessEnv {
    return {
      ...process.env,
      // The reader's shell has none of the test's own settings.
      REDIS_URL: '',
      REDIS_CLUSTER_NODES: '',
      REDIS_SENTINELS: '',
      DATABASE_URL: '',
      API_KEYS_FILE: '',
      REDIS_NAMESPACE: '',
      HOST: '',
      STORE_NAMESPACE: this.#setup.namespace,
      PORT: String(this.#setup.ports.get('3000')),
      SHUTDOWN_DELAY_MS: '',
      LOG_LEVEL: '',
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    };
  }

  /** Saves a ```js / ```ts block that names its file on its first line; false when it names none. */
  save(code: string): boolean {
    const name = /^\/\/ ([\w.-]+\.(?:mjs|cjs|js|mts|ts))\s*\n/.exec(code)?.[1];
    if (name === undefined) return false;
    writeFileSync(join(this.#setup.dir, name), code);
    return true;
  }

  /**
   * Runs a shell block: resolves once it has exited 0 (its output checked) or printed `listening on ...` (a server,
   * left running in `section`).
   */
  async run(code: string, section: string): Promise<void> {
    const child = spawn('bash', ['-euo', 'pipefail', '-c', this.#script(code)], {
      cwd: this.#setup.dir,
      env: this.#environment(),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // a process group of its own, as a terminal's foreground job
    });
    const output: string[] = [];
    let stdout = '';
    let listening: () => void = () => {};
    const started = new Promise<void>((resolve) => {
      listening = resolve;
    });
    const onLine = (line: string): void => {
      output.push(line);
      const key = /^(?:dev API key|key): (\S+)$/.exec(line)?.[1];
      if (key !== undefined) this.#key = key;
      if (/^listening on http:\/\//.test(line)) listening();
    };
    createInterface({ input: child.stdout! }).on('line', (line) => {
      stdout += `${line}\n`;
      onLine(line);
    });
    createInterface({ input: child.stderr! }).on('line', onLine);
    const closed = new Promise<number | null>((resolve) => child.once('close', (status) => resolve(status)));
    const outcome = await Promise.race([closed.then((status) => ({ status })), started.then(() => 'server' as const)]);
    if (outcome === 'server') {
      this.#running.push({ section, child, output, closed });
      return;
    }
    expect(outcome.status, `the block exits 0:\n${output.join('\n')}`).to.equal(0);
    checkShellResults(code, stdout, this.#setup.dir);
  }

  /** Ctrl-C to the servers of sections other than `section` (all of them without one); each must exit by itself. */
  async leave(section?: string): Promise<void> {
    const leaving = this.#running.filter((r) => r.section !== section);
    this.#running = this.#running.filter((r) => r.section === section);
    for (const server of leaving) {
      process.kill(-server.child.pid!, 'SIGINT');
      await server.closed; // every process of the group has exited and closed its output
      expect(server.output.join('\n'), 'the server drains on Ctrl-C').to.contain('"msg":"SIGINT: shutting down"');
    }
  }

  /** Ends what is still running, whatever state the session is in (after a failure). */
  kill(): void {
    for (const server of this.#running) {
      try {
        process.kill(-server.child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    this.#running = [];
  }
}
