// CHANGELOG.md keeps the Keep a Changelog shape (Unreleased first, then each version with its date, only the known
// kinds of change, a link for every version) and has a section for package.json's version, so a release tag always
// has its notes; docs/versioning.md names the Node.js lines CI tests and the oldest that package.json accepts.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';

const REPO = process.cwd();
const read = (path: string): string => readFileSync(join(REPO, path), 'utf8');
const KINDS = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];

describe('CHANGELOG.md and the versioning policy', () => {
  const changelog = read('CHANGELOG.md');
  const manifest = JSON.parse(read('package.json')) as { version: string; engines: { node: string } };
  const versions = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$/gm)].map((m) => ({
    version: m[1]!,
    date: m[2],
  }));

  it('is in the Keep a Changelog shape: Unreleased first, then dated versions, newest first', () => {
    expect(changelog).to.match(/^# Changelog\n/);
    expect(changelog).to.contain('[Keep a Changelog](https://keepachangelog.com/');
    expect(changelog).to.contain('(docs/versioning.md)');
    expect(versions[0]).to.deep.equal({ version: 'Unreleased', date: undefined });
    const released = versions.slice(1);
    expect(released.length).to.be.greaterThan(0);
    for (const { version, date } of released) {
      expect(version, 'a semver version').to.match(/^\d+\.\d+\.\d+(?:-[\w.]+)?$/);
      expect(date, `${version} has a date`).to.match(/^\d{4}-\d{2}-\d{2}$/);
    }
    const dates = released.map((v) => v.date!);
    expect(dates).to.deep.equal([...dates].sort().reverse());
    // Every `### ` heading is a kind of change, and every version has a link at the bottom.
    for (const [, kind] of changelog.matchAll(/^### (.+)$/gm)) expect(KINDS, kind).to.include(kind);
    for (const { version } of versions)
      expect(changelog, version).to.match(new RegExp(`^\\[${version}\\]: https://`, 'm'));
  });

  it("has a section for package.json's version (a release tag names it)", () => {
    expect(versions.map((v) => v.version)).to.include(manifest.version);
  });

  it('docs/versioning.md names the Node.js lines CI tests, and the oldest package.json accepts', () => {
    const ci = load(read('.github/workflows/ci.yml')) as {
      jobs: Record<string, { strategy?: { matrix?: { node?: string[] } } }>;
    };
    const tested = Object.values(ci.jobs).flatMap((job) => job.strategy?.matrix?.node ?? []);
    const policy = read('docs/versioning.md');
    const table = [...policy.matchAll(/^\| (\d+)[^|]* \| yes\b/gm)].map((m) => m[1]!);
    expect(table).to.deep.equal(tested);
    const oldest = /^>=(\d+\.\d+)$/.exec(manifest.engines.node)![1]!;
    expect(policy).to.contain(`| ${oldest} and later`);
    expect(policy).to.contain(`\`>=${oldest}\``);
    for (const covered of ['exported names', 'HTTP API', 'environment variables', 'key file', 'stored names'])
      expect(policy, covered).to.contain(covered);
    expect(policy).to.contain('## Deprecation before removal');
  });
});
