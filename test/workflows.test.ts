// The GitHub Actions workflows, checked here since they cannot run here: they parse, CI runs `.ci/run` on Node 20,
// 22, 24 and 26 (a job each), and a version tag publishes the npm package with provenance and a multi-architecture
// image on ghcr.io with an SBOM and a provenance attestation, each after checking the tag against package.json and
// with the permissions it needs. Every npm script and repository file a step calls exists.

import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { load } from 'js-yaml';

const run = promisify(execFile);
const REPO = process.cwd();
const WORKFLOWS = join(REPO, '.github', 'workflows');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  name?: string;
  uses?: string;
  needs?: string | string[];
  'runs-on'?: string;
  container?: { image: string };
  strategy?: { 'fail-fast'?: boolean; matrix?: Record<string, unknown[]> };
  permissions?: Record<string, string>;
  steps?: Step[];
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  permissions?: Record<string, string>;
  jobs: Record<string, Job>;
}

function workflow(file: string): Workflow {
  return load(readFileSync(join(WORKFLOWS, file), 'utf8')) as Workflow;
}

/** Folders of this repository a step may name a file in (`.ci/run`, `node dist/bin/zpl-keys.js`). */
const REPOSITORY_PATH =
  /^(?:\.\/)?((?:\.ci|\.github|bin|dist|bench|tools|server|test|examples|docs|web|corpus)\/[\w./-]*\w)$/;

/**
 * What a workflow's steps call that does not exist: npm scripts missing from package.json (`npm run x`, `npm test`,
 * `npm start`, and `prepack` for `npm pack`/`npm publish`), repository files (a compiled `dist/...js` counts when its
 * TypeScript source exists: CI builds it first), and local actions or reusable workflows (`uses: ./...`).
 */
export function missingCalls(flow: Workflow, repo = REPO): string[] {
  const scripts = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts;
  const exists = (path: string): boolean => {
    const source = /^dist\/(.+)\.js$/.exec(path);
    return existsSync(join(repo, path)) || (source !== null && existsSync(join(repo, `${source[1]}.ts`)));
  };
  const missing: string[] = [];
  for (const [id, job] of Object.entries(flow.jobs)) {
    const calls: string[] = [];
    if (job.uses) calls.push(job.uses);
    for (const step of job.steps ?? []) if (step.uses?.startsWith('./')) calls.push(step.uses);
    for (const local of calls.filter((c) => c.startsWith('./')))
      if (!exists(local.slice(2))) missing.push(`${id}: ${local} does not exist`);
    for (const step of job.steps ?? []) {
      if (step.run === undefined) continue;
      for (const command of step.run.split(/\n|&&|\|\||;|\||\$\(|`/)) {
        const words = command
          .trim()
          .split(/\s+/)
          .map((w) => w.replace(/^["'(]+|["')]+$/g, ''));
        const npm = words.indexOf('npm');
        if (npm >= 0) {
          const [verb, name] = [words[npm + 1], words[npm + 2]];
          const script =
            verb === 'run' || verb === 'run-script'
              ? name
              : verb === 'test' || verb === 't'
                ? 'test'
                : verb === 'start'
                  ? 'start'
                  : verb === 'publish' || verb === 'pack'
                    ? 'prepack'
                    : undefined;
          if (script !== undefined && scripts[script] === undefined)
            missing.push(`${id}: npm script ${script} (${command.trim()}) is not in package.json`);
        }
        for (const word of words) {
          const path = REPOSITORY_PATH.exec(word)?.[1];
          if (path !== undefined && !exists(path)) missing.push(`${id}: ${path} (${command.trim()}) does not exist`);
        }
      }
    }
  }
  return missing;
}

/** A GitHub Actions expression as a workflow writes it: `${{ matrix.node }}`. */
const gh = (expression: string): string => `\${{ ${expression} }}`;

const stepUsing = (job: Job, action: string): Step | undefined =>
  job.steps?.find((s) => s.uses?.split('@')[0] === action);
const stepIndex = (job: Job, test: (s: Step) => boolean): number => (job.steps ?? []).findIndex(test);

describe('GitHub Actions workflows', () => {
  it('has the CI and release workflows, and every workflow parses', () => {
    const files = readdirSync(WORKFLOWS).sort();
    expect(files).to.include.members(['ci.yml', 'release.yml']);
    for (const file of files) {
      const flow = workflow(file);
      expect(flow.name, file).to.be.a('string');
      expect(Object.keys(flow.jobs).length, file).to.be.greaterThan(0);
    }
  });

  it('CI: .ci/run on every push and pull request, on Node 20, 22, 24 and 26, a job each, with read-only contents', () => {
    const ci = workflow('ci.yml');
    expect(ci.on).to.have.all.keys('push', 'pull_request', 'workflow_call');
    expect(ci.on.push).to.deep.equal({ branches: ['**'] }); // every branch; tags go through the release workflow
    expect(ci.permissions).to.deep.equal({ contents: 'read' });
    const jobs = Object.values(ci.jobs);
    expect(jobs).to.have.length(1);
    const [test] = jobs as [Job];
    expect(test.strategy?.matrix?.node).to.deep.equal(['20', '22', '24', '26']);
    // The container image's line (the current LTS) is tested like the rest.
    const imageLine = /^FROM node:(\d+)\./m.exec(readFileSync(join(REPO, 'Dockerfile'), 'utf8'))![1]!;
    expect(test.strategy?.matrix?.node).to.include(imageLine);
    expect(test.strategy?.['fail-fast'], 'each Node line runs to its end').to.equal(false);
    expect(test.container?.image).to.equal(`node:${gh('matrix.node')}-trixie`);
    expect(test.steps!.map((s) => s.run?.trim()).filter(Boolean)).to.include('.ci/run');
    expect(stepIndex(test, (s) => s.uses?.startsWith('actions/checkout@') ?? false)).to.equal(0);
    // .ci/run calls exactly `npm ci` then `npm test`.
    const ciRun = readFileSync(join(REPO, '.ci', 'run'), 'utf8');
    expect(ciRun).to.match(/^npm ci \|\|/m);
    expect(ciRun).to.match(/^npm test 2>&1/m);
  });

  it('release: on a v* tag, after CI, npm publish --provenance with id-token: write', () => {
    const release = workflow('release.yml');
    expect(release.on).to.deep.equal({ push: { tags: ['v*'] } });
    expect(release.permissions).to.deep.equal({ contents: 'read' });
    expect(release.jobs.ci!.uses).to.equal('./.github/workflows/ci.yml');
    const npm = release.jobs.npm!;
    expect(npm.needs).to.equal('ci');
    expect(npm.permissions).to.deep.equal({ contents: 'read', 'id-token': 'write' });
    expect(stepUsing(npm, 'actions/setup-node')?.with).to.include({ 'registry-url': 'https://registry.npmjs.org' });
    const publish = stepIndex(npm, (s) => /^npm publish --provenance\b/.test(s.run ?? ''));
    const check = stepIndex(npm, (s) => /\.ci\/release-tag\.sh "\$GITHUB_REF_NAME"/.test(s.run ?? ''));
    expect(publish, 'npm publish --provenance').to.be.greaterThan(-1);
    expect(check, 'the tag check comes first').to.be.within(0, publish - 1);
    expect(npm.steps![publish]!.env).to.have.property('NODE_AUTH_TOKEN');
  });

  it('release: a linux/amd64 and linux/arm64 image on ghcr.io, version and commit tags, SBOM and provenance', () => {
    const image = workflow('release.yml').jobs.image!;
    expect(image.needs).to.equal('ci');
    expect(image.permissions).to.include({ contents: 'read', packages: 'write', 'id-token': 'write' });
    const login = stepUsing(image, 'docker/login-action');
    expect(login?.with).to.include({ registry: 'ghcr.io' });
    const meta = stepUsing(image, 'docker/metadata-action')!;
    expect(meta.with!.images).to.equal(`ghcr.io/${gh('github.repository')}`);
    const tags = String(meta.with!.tags);
    expect(tags).to.contain(`type=raw,value=${gh('steps.version.outputs.version')}`);
    expect(tags).to.contain('type=sha');
    const build = stepUsing(image, 'docker/build-push-action')!;
    expect(build.with).to.include({
      platforms: 'linux/amd64,linux/arm64',
      push: true,
      sbom: true,
      provenance: 'mode=max',
      tags: `${gh('steps.meta.outputs.tags')}`,
    });
    expect(stepUsing(image, 'docker/setup-qemu-action'), 'arm64 is built under QEMU').to.not.equal(undefined);
    const attest = stepUsing(image, 'actions/attest-build-provenance')!;
    expect(attest.with).to.include({
      'subject-digest': `${gh('steps.push.outputs.digest')}`,
      'push-to-registry': true,
    });
    const check = stepIndex(image, (s) => /\.ci\/release-tag\.sh "\$GITHUB_REF_NAME"/.test(s.run ?? ''));
    expect(check, 'the tag check comes before the build').to.be.within(0, stepIndex(image, (s) => s === build) - 1);
  });

  it('refuses a tag that does not name package.json version (.ci/release-tag.sh)', async () => {
    const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    const ok = await run('bash', ['.ci/release-tag.sh', `v${version}`], { cwd: REPO });
    expect(ok.stdout).to.equal(`${version}\n`);
    for (const tag of [`v${version}.1`, version, 'v0.0.0-rc.1', 'latest']) {
      const refused = await run('bash', ['.ci/release-tag.sh', tag], { cwd: REPO }).then(
        () => undefined,
        (e: { code: number; stderr: string }) => e,
      );
      expect(refused?.code, tag).to.equal(1);
      expect(refused?.stderr, tag).to.contain(`the tag ${tag} does not name package.json's version ${version}`);
    }
  });

  it('finds a step that calls a missing npm script, repository file or local workflow', () => {
    const flow: Workflow = {
      name: 'broken',
      on: { push: {} },
      jobs: {
        a: {
          steps: [
            { run: 'npm ci && npm run no-such-script' },
            { run: 'bash .ci/no-such-file.sh "$X"\nnode dist/bin/no-such-cli.js --help' },
            { run: 'npm run build && node dist/bin/zpl-keys.js --help && .ci/run' },
            { uses: './.github/actions/no-such-action' },
          ],
        },
        b: { uses: './.github/workflows/no-such.yml' },
      },
    };
    expect(missingCalls(flow)).to.deep.equal([
      'a: ./.github/actions/no-such-action does not exist',
      'a: npm script no-such-script (npm run no-such-script) is not in package.json',
      'a: .ci/no-such-file.sh (bash .ci/no-such-file.sh "$X") does not exist',
      'a: dist/bin/no-such-cli.js (node dist/bin/no-such-cli.js --help) does not exist',
      'b: ./.github/workflows/no-such.yml does not exist',
    ]);
  });

  for (const file of existsSync(WORKFLOWS) ? readdirSync(WORKFLOWS).sort() : []) {
    it(`${file}: every npm script and repository file its steps call exists`, () => {
      expect(missingCalls(workflow(file))).to.deep.equal([]);
    });
  }
});
