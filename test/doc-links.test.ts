// Every relative link and #anchor in README.md, docs/*.md, bench/README.md and CHANGELOG.md resolves: the file or folder exists,
// and an anchor names a heading of the page it points into, as GitHub makes heading anchors.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { expect } from 'chai';

const REPO = process.cwd();

/** A Markdown text without its fenced blocks (indented ones in list items too). */
function withoutFences(markdown: string): string {
  return markdown.replace(/^([ \t]*)```[^\n]*\n[\s\S]*?^\1```[ \t]*$/gm, '');
}

/** The prose of a Markdown text: fenced blocks and inline code taken out (their brackets are not links). */
function prose(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor for a heading: its text lower-cased, punctuation dropped, spaces as hyphens (github-slugger). */
export function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // links and images: their text
    .replace(/`([^`]*)`/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__|\*|~~)/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a Markdown page: one per heading, repeats numbered -1, -2 as GitHub does. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  const withoutBlocks = withoutFences(markdown);
  for (const [, text] of withoutBlocks.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(text!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

/** Links of `file` (relative to the repository) that do not resolve, as `target: why`. */
export function brokenLinks(
  file: string,
  read: (path: string) => string = (p) => readFileSync(join(REPO, p), 'utf8'),
): string[] {
  const markdown = read(file);
  const broken: string[] = [];
  for (const [, target] of prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto: and the like
    const [path, anchor] = target!.split('#', 2) as [string, string | undefined];
    const into = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
    if (into.startsWith('..')) {
      broken.push(`${target}: leaves the repository`);
      continue;
    }
    if (path !== '' && !existsSync(join(REPO, into))) {
      broken.push(`${target}: no such file (${into})`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!into.endsWith('.md') || (path !== '' && statSync(join(REPO, into)).isDirectory())) {
      broken.push(`${target}: an anchor into something that is not a Markdown page`);
      continue;
    }
    if (!anchors(into === file ? markdown : read(into)).has(anchor))
      broken.push(`${target}: ${into} has no heading #${anchor}`);
  }
  return broken;
}

const FILES = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((n) => n.endsWith('.md'))
    .sort()
    .map((n) => `docs/${n}`),
  'bench/README.md',
  'CHANGELOG.md',
];

describe('links in the documentation', () => {
  it('makes anchors as GitHub does', () => {
    expect(slug('Router options (`createLegacyRouter(options)`)')).to.equal('router-options-createlegacyrouteroptions');
    expect(slug('Command line: `zpl-render`')).to.equal('command-line-zpl-render');
    expect(slug('Glyph models: `tools/font0-model/`')).to.equal('glyph-models-toolsfont0-model');
    expect(slug('Soak, before and after')).to.equal('soak-before-and-after');
    expect(slug('What works against the legacy API')).to.equal('what-works-against-the-legacy-api');
    expect([...anchors('# A\n## Usage\n```\n## not a heading\n```\n## Usage\n')]).to.deep.equal([
      'a',
      'usage',
      'usage-1',
    ]);
  });

  it('finds broken links: a missing file, a missing anchor, a link out of the repository', () => {
    const pages: Record<string, string> = {
      'docs/x.md':
        '# X\n[ok](#x) [gone](nowhere.md) [bad anchor](../README.md#no-such-heading) [out](../../etc/passwd) `[not a link](nowhere.md)`\n',
    };
    const read = (path: string): string => pages[path] ?? readFileSync(join(REPO, path), 'utf8');
    expect(brokenLinks('docs/x.md', read).map((b) => b.split(':')[0])).to.deep.equal([
      'nowhere.md',
      '../README.md#no-such-heading',
      '../../etc/passwd',
    ]);
  });

  for (const file of FILES) {
    it(`${file}: every relative link and anchor resolves`, () => {
      expect(brokenLinks(file)).to.deep.equal([]);
    });
  }

  it('CONTRIBUTING.md names only files that exist', () => {
    const page = readFileSync(join(REPO, 'CONTRIBUTING.md'), 'utf8');
    const named = [...page.matchAll(/`((?:test|middleware|renderer|server|\.githooks)\/[\w./-]+)`/g)].map((m) => m[1]!);
    expect(named.length).to.be.above(5);
    expect(named.filter((path) => !existsSync(join(REPO, path)))).to.deep.equal([]);
  });

  it('links every page of docs/ from the README', () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const linked = new Set([...prose(readme).matchAll(/\]\((docs\/[^)#]+\.md)/g)].map((m) => m[1]!));
    const pages = FILES.filter((f) => f.startsWith('docs/'));
    expect(pages.filter((p) => !linked.has(p)).map((p) => relative('.', p))).to.deep.equal([]);
  });
});
