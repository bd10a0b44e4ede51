// Replays a Dockerfile without Docker: each stage is a folder; COPY copies what Docker would copy (from the
// build context minus .dockerignore, or --from another stage's folder), RUN runs in the stage's WORKDIR with
// its ENV, and the runtime stage's CMD and HEALTHCHECK are handed back to be run from that folder alone.
// An instruction it does not know is an error, so the replay never silently skips a step.

import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';

export interface Stage {
  name: string;
  /** The stage's file system root (a folder of the host). */
  root: string;
  workdir: string;
  env: Record<string, string>;
  cmd?: string[];
  healthcheck?: string[];
}

export interface Instruction {
  keyword: string;
  args: string;
}

/** Instructions in order: comments dropped, continuation lines joined. */
export function parseDockerfile(text: string): Instruction[] {
  const joined = text.replace(/\\\r?\n/g, ' ');
  return joined
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^(\w+)\s+(.*)$/.exec(line);
      if (!match) throw new Error(`Dockerfile line not understood: ${line}`);
      return { keyword: match[1]!.toUpperCase(), args: match[2]!.trim() };
    });
}

/** Flags (`--from=build`) and the rest of an instruction's arguments. */
function splitFlags(args: string): { flags: Record<string, string>; rest: string } {
  const flags: Record<string, string> = {};
  let rest = args;
  for (;;) {
    const match = /^--([\w-]+)=(\S+)\s+/.exec(rest);
    if (!match) return { flags, rest };
    flags[match[1]!] = match[2]!;
    rest = rest.slice(match[0].length);
  }
}

function execForm(text: string): string[] {
  const parsed = JSON.parse(text) as unknown;
  if (!Array.isArray(parsed) || !parsed.every((p) => typeof p === 'string'))
    throw new Error(`not an exec form: ${text}`);
  return parsed as string[];
}

/**
 * `.dockerignore` patterns (exact paths, `*` within one path segment, `!` re-including) as a test of a
 * context-relative path: as in Docker, a pattern matches a path or any folder above it, and the last match decides.
 */
export function ignoredBy(context: string): (path: string) => boolean {
  const file = join(context, '.dockerignore');
  const patterns = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l && !l.startsWith('#'))
    : [];
  const rules = patterns.map((line) => {
    const exclude = !line.startsWith('!');
    const p = line.replace(/^!/, '').replace(/^\/+/, '');
    return { exclude, re: new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/|$)`) };
  });
  return (path) => rules.reduce((ignored, rule) => (rule.re.test(path) ? rule.exclude : ignored), false);
}

/** Runs a shell command in `cwd`; resolves when it exits 0, rejects with its output otherwise. */
function run(command: string, cwd: string, env: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.stderr.on('data', (c: Buffer) => {
      output += c.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`RUN ${command} exited with ${code}:\n${output.slice(-4000)}`)),
    );
  });
}

/** The environment a RUN sees: the host's tools (PATH: node, npm) and the stage's ENV. */
function runEnv(stage: Stage): Record<string, string> {
  const { PATH = '', HOME = '/tmp' } = process.env;
  return { PATH, HOME, ...stage.env };
}

/** Replays `dockerfile` with `context` as build context; stages live in folders under `into`. Returns every stage. */
export async function replayDockerfile(
  dockerfile: string,
  context: string,
  into: string,
  log: (line: string) => void = () => {},
): Promise<Stage[]> {
  const stages: Stage[] = [];
  const ignored = ignoredBy(context);
  const inStage = (stage: Stage, path: string): string =>
    join(stage.root, path.startsWith('/') ? path : join(stage.workdir, path));
  let stage: Stage | undefined;
  for (const { keyword, args } of parseDockerfile(readFileSync(dockerfile, 'utf8'))) {
    log(`${keyword} ${args}`);
    if (keyword === 'FROM') {
      const name = /\bAS\s+(\S+)$/i.exec(args)?.[1] ?? String(stages.length);
      stage = { name, root: join(into, name), workdir: '/', env: {} };
      mkdirSync(stage.root, { recursive: true });
      stages.push(stage);
      continue;
    }
    if (!stage) throw new Error(`${keyword} before FROM`);
    switch (keyword) {
      case 'WORKDIR':
        stage.workdir = args.startsWith('/') ? args : join(stage.workdir, args);
        mkdirSync(join(stage.root, stage.workdir), { recursive: true });
        break;
      case 'ENV':
        for (const pair of args.split(/\s+/)) {
          const eq = pair.indexOf('=');
          if (eq < 1) throw new Error(`ENV ${pair}: only KEY=VALUE pairs are replayed`);
          stage.env[pair.slice(0, eq)] = pair.slice(eq + 1).replace(/^"(.*)"$/, '$1');
        }
        break;
      case 'COPY': {
        const { flags, rest } = splitFlags(args);
        const parts = rest.startsWith('[') ? execForm(rest) : rest.split(/\s+/);
        const dest = parts.pop()!;
        if (parts.some((p) => /[*?[]/.test(p))) throw new Error(`COPY ${rest}: wildcards are not replayed`);
        const from = flags.from === undefined ? undefined : stages.find((s) => s.name === flags.from);
        if (flags.from !== undefined && !from) throw new Error(`COPY --from=${flags.from}: no such stage`);
        const target = inStage(stage, dest);
        const intoFolder = dest.endsWith('/') || parts.length > 1;
        for (const source of parts) {
          const path = from
            ? join(from.root, source.startsWith('/') ? source : join(from.workdir, source))
            : join(context, source);
          if (!from && ignored(relative(context, path))) throw new Error(`COPY ${source}: excluded by .dockerignore`);
          if (!existsSync(path)) throw new Error(`COPY ${source}: not found (${path})`);
          if (statSync(path).isDirectory()) {
            // A folder's contents go into the destination folder, minus what .dockerignore excludes.
            cpSync(path, target, {
              recursive: true,
              filter: (p) => from !== undefined || !ignored(relative(context, p)),
            });
          } else {
            const file = intoFolder ? join(target, basename(source)) : target;
            mkdirSync(dirname(file), { recursive: true });
            cpSync(path, file);
          }
        }
        break;
      }
      case 'RUN':
        await run(
          args.startsWith('[')
            ? execForm(args)
                .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
                .join(' ')
            : args,
          join(stage.root, stage.workdir),
          runEnv(stage),
        );
        break;
      case 'CMD':
        stage.cmd = execForm(args);
        break;
      case 'HEALTHCHECK': {
        const match = /\bCMD\s+(\[.*\])$/.exec(args);
        if (!match) throw new Error(`HEALTHCHECK ${args}: only the exec form is replayed`);
        stage.healthcheck = execForm(match[1]!);
        break;
      }
      case 'USER':
      case 'EXPOSE':
      case 'STOPSIGNAL':
      case 'LABEL':
        break; // nothing to replay on the host
      default:
        throw new Error(`Dockerfile instruction ${keyword} is not replayed`);
    }
  }
  return stages;
}
