// Per-file checks for mocha's root hook plugins: mocha has root hooks per test and per run, none per file.
// wireFileHooks() gives each test file's top-level suites a first hook naming the running file and a last hook
// running the registered checks; a file with root-level hooks of its own is checked after the run's last hook.

import { basename } from 'node:path';
import Mocha from 'mocha';

export type FileCheck = (file: string) => void | Promise<void>;

const checks: FileCheck[] = [];
let wired = false;
/** The pseudo-file of what no test file made (or made outside its suites): checked once the run ends. */
export const RUN = '(the run)';

let running: string | undefined;
let title: string | undefined;
let started = { wall: 0, cpu: process.cpuUsage() };
let loading: string | undefined;

// Hooks a file registers at its top level land on the root suite with no file: name the file being loaded.
type Internals = {
  emit(event: string, ...args: unknown[]): boolean;
  _createHook(title: string, fn: unknown): Mocha.Hook;
};
const suiteProto = Mocha.Suite.prototype as unknown as Internals;
const emit = suiteProto.emit;
suiteProto.emit = function (this: Mocha.Suite, event: string, ...args: unknown[]) {
  if (event === 'pre-require' && this.root) loading = args[1] as string;
  return emit.call(this, event, ...args);
};
const createHook = suiteProto._createHook;
suiteProto._createHook = function (this: Mocha.Suite, title: string, fn: unknown) {
  const hook = createHook.call(this, title, fn);
  if (this.root && hook.file === undefined) hook.file = loading;
  return hook;
};

// The test or hook running: from the runner's events (a wrapper of Runnable#run would sit in every failure's stack).
const runnerProto = Mocha.Runner.prototype as unknown as { run(...args: unknown[]): unknown };
const runnerRun = runnerProto.run;
runnerProto.run = function (this: Mocha.Runner, ...args: unknown[]) {
  const named = (runnable: Mocha.Runnable): void => {
    title = runnable.fullTitle();
  };
  this.on(Mocha.Runner.constants.EVENT_HOOK_BEGIN, named);
  this.on(Mocha.Runner.constants.EVENT_TEST_BEGIN, named);
  return runnerRun.apply(this, args);
};

/** The path of the test file (dist/test/NAME.test.js) whose suites are running, if any. */
export function runningFile(): string | undefined {
  return running;
}

/** The title of the test or hook running now (or last), to say which one made a leaked handle. */
export function runningTitle(): string | undefined {
  return title;
}

/** Short name of a test file for messages: NAME.test.js. */
export function fileName(file: string): string {
  return basename(file);
}

/** Registers a check that runs once each file's suites (and its own hooks) are done. */
export function atEachFileEnd(check: FileCheck): void {
  checks.push(check);
}

/** Call from a root `beforeAll` with the root suite; every plugin may call it, it wires once. */
export function wireFileHooks(root: Mocha.Suite): void {
  if (wired) return;
  wired = true;
  const byFile = new Map<string, Mocha.Suite[]>();
  for (const suite of root.suites) {
    const file = suite.file ?? '(unknown file)';
    byFile.set(file, [...(byFile.get(file) ?? []), suite]);
  }
  // A file with root-level `after` hooks frees what they hold only after every file has run: check it then.
  const rootAfterHooks = (root as unknown as { _afterAll: Mocha.Hook[] })._afterAll;
  const rootHookFiles = new Set(rootAfterHooks.map((hook) => hook.file).filter((file) => file !== undefined));
  const atRunEnd: string[] = [];
  for (const [file, suites] of byFile) {
    const first = suites[0]!;
    const last = suites.at(-1)!;
    first.beforeAll(`file starts: ${fileName(file)}`, () => {
      running = file;
      started = { wall: performance.now(), cpu: process.cpuUsage() };
    });
    // Runs before the suite's own `before` hooks, so what they open is counted as this file's.
    const hooks = (first as unknown as { _beforeAll: Mocha.Hook[] })._beforeAll;
    hooks.unshift(hooks.pop()!);
    if (rootHookFiles.has(file)) {
      atRunEnd.push(file);
      last.afterAll(`file ends: ${fileName(file)}`, () => fileEnded(file));
      continue;
    }
    last.afterAll(`checks of ${fileName(file)}`, async function (this: Mocha.Context) {
      this.timeout(60_000);
      fileEnded(file);
      await runChecks(file);
    });
  }
  // Appended after the root-level hooks the files registered while loading, so it runs once they are done.
  root.afterAll('checks of the run', async function (this: Mocha.Context) {
    this.timeout(60_000);
    for (const file of [...atRunEnd, RUN]) await runChecks(file);
  });
}

/** ZPL_TEST_TIMES=1: each file's wall and CPU time (this process; child processes not counted) on stderr. */
function fileEnded(file: string): void {
  running = undefined;
  if (!process.env.ZPL_TEST_TIMES) return;
  const wall = (performance.now() - started.wall) / 1000;
  const { user, system } = process.cpuUsage(started.cpu);
  process.stderr.write(
    `[time] ${fileName(file)} ${wall.toFixed(2)} s wall ${((user + system) / 1e6).toFixed(2)} s CPU\n`,
  );
}

async function runChecks(file: string): Promise<void> {
  const failures: string[] = [];
  for (const check of checks) {
    try {
      await check(file);
    } catch (error) {
      failures.push((error as Error).message);
    }
  }
  if (failures.length === 0) return;
  const error = new Error(failures.join('\n'));
  error.stack = error.message;
  throw error;
}
