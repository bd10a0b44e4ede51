// The header lists in the docs are the HTTP table's (middleware/api-table/): the request-header table of
// docs/http-api.md row for row with its values and defaults, and every passage that lists forwarded, CORS or page
// headers names exactly what the code uses. A header added to the table and not to the docs fails here.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import {
  API_KEY_HEADER,
  BODY_HEADERS,
  EXPOSED_RESPONSE_HEADERS,
  EXTRA_OUTPUTS,
  FONT_FORM_FIELDS,
  OPTION_HEADERS,
  REQUEST_HEADERS,
  RESPONSE_HEADERS,
  type RequestHeaderSpec,
} from '../middleware/api-table/index.js';
import { OUTPUT_TYPES } from '../renderer/api.js';
import { PAGE_COMPOSITION_HEADERS } from '../middleware/label-route/page-composition.js';
import { DEFAULT_FORWARD_HEADERS } from '../middleware/upstream/outgoing-headers.js';

const read = (path: string): string => readFileSync(join(process.cwd(), path), 'utf8');

/** Every header name the tables know, for expanding the docs' `X-Page-*` shorthand. */
const KNOWN = [
  API_KEY_HEADER,
  ...BODY_HEADERS,
  ...REQUEST_HEADERS.map((h) => h.name),
  ...Object.values(RESPONSE_HEADERS).map((h) => h.name),
];

/** The backticked tokens of a text. */
function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

/** Header names in a passage, `X-Page-*` expanded over the known names; a pattern matching none is kept as is. */
function headerNames(text: string): string[] {
  return codeSpans(text).flatMap((token) => {
    if (!token.endsWith('*')) return [token];
    const matched = KNOWN.filter((name) => name.startsWith(token.slice(0, -1)));
    return matched.length > 0 ? matched : [token];
  });
}

const sorted = (names: readonly string[]): string[] => [...new Set(names)].sort();

/** The text between two markers of a page (the first marker at or after `from`). */
function between(page: string, start: string, end: string): string {
  const at = page.indexOf(start);
  expect(at, `"${start}" in the page`).to.be.at.least(0);
  const stop = page.indexOf(end, at + start.length);
  expect(stop, `"${end}" after "${start}"`).to.be.above(at);
  return page.slice(at + start.length, stop);
}

/** The cells of a Markdown table row. */
function cells(row: string): string[] {
  // NUL stands in for an escaped pipe while splitting.
  return row
    .replace(/\\\|/g, '\u0000')
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim().replaceAll('\u0000', '|'));
}

/** The body rows of the first table after a heading. */
function tableAfter(page: string, heading: string): string[][] {
  const lines = page.slice(page.indexOf(`\n${heading}\n`)).split('\n');
  const first = lines.findIndex((l) => l.startsWith('|'));
  const rows: string[] = [];
  for (let i = first; i < lines.length && lines[i]!.startsWith('|'); i++) rows.push(lines[i]!);
  return rows.slice(2).map(cells);
}

describe('Docs: header lists come from the HTTP table', () => {
  const httpApi = read('docs/http-api.md');
  const mounting = read('docs/mounting.md');

  describe('docs/http-api.md, Request headers', () => {
    const rows = tableAfter(httpApi, '## Request headers');
    const byName = new Map(rows.map((row) => [codeSpans(row[0]!)[0]!, row]));

    it('lists X-API-Key and every request header of the table', () => {
      expect(sorted(rows.map((row) => codeSpans(row[0]!)[0]!))).to.deep.equal(
        sorted([API_KEY_HEADER, ...REQUEST_HEADERS.map((h) => h.name)]),
      );
    });

    for (const spec of REQUEST_HEADERS as readonly RequestHeaderSpec[]) {
      if (!spec.values) continue;
      it(`${spec.name}: the values and the default the table lists`, () => {
        const valuesCell = byName.get(spec.name)![1]!;
        const listed = codeSpans(valuesCell)
          .map((v) => v.toLowerCase())
          .sort();
        // Accept lists the extra outputs' types too (router option `outputs`).
        const extra = spec.name === 'Accept' ? EXTRA_OUTPUTS.map((o) => OUTPUT_TYPES[o].mediaType) : [];
        expect(listed).to.deep.equal([...spec.values!, ...extra].map((v) => v.toLowerCase()).sort());
        const marked = [...valuesCell.matchAll(/`([^`]+)` \(default\)/g)].map((m) => m[1]!.toLowerCase());
        expect(marked).to.deep.equal(spec.default === undefined ? [] : [spec.default.toLowerCase()]);
      });
    }
  });

  describe('docs/http-api.md, POST /fonts', () => {
    const rows = tableAfter(httpApi, '## `POST /fonts`: a TrueType font as ZPL');

    it("lists the form's fields in the table's order, each pattern as the legacy service writes it", () => {
      expect(rows.map((row) => codeSpans(row[0]!)[0])).to.deep.equal(Object.keys(FONT_FORM_FIELDS));
      const cell = (name: string) => rows.find((row) => row[0] === `\`${name}\``)![1]!;
      expect(codeSpans(cell('path'))[0]).to.equal(FONT_FORM_FIELDS.path.pattern.slice(1, -1).replace('\\.', '.'));
      expect(codeSpans(cell('name')).join('')).to.equal(/\[(\w+)\]/.exec(FONT_FORM_FIELDS.name.pattern)![1]);
      expect(cell('file')).to.include('(required)');
    });

    it("quotes each field's refusal as the table words it", () => {
      const quoted = between(httpApi, '| a bad field |', '\n');
      expect(quoted).to.include(`\`ERROR: ${FONT_FORM_FIELDS.path.refusal('R:FONT.OTF')}\``);
      expect(quoted).to.include(`\`ERROR: ${FONT_FORM_FIELDS.name.refusal('A')}\``);
      expect(quoted).to.include(`\`ERROR: ${FONT_FORM_FIELDS.unicodes.refusal('0039-0030')}\``);
    });
  });

  it('docs/mounting.md: the forwardHeaders default is DEFAULT_FORWARD_HEADERS', () => {
    const row = cells(mounting.split('\n').find((l) => l.startsWith('| `forwardHeaders` |'))!);
    expect(sorted(headerNames(row.at(-1)!))).to.deep.equal(sorted(DEFAULT_FORWARD_HEADERS));
  });

  it('docs/migration-and-shadow.md: the forwarded allowlist is DEFAULT_FORWARD_HEADERS', () => {
    const passage = between(read('docs/migration-and-shadow.md'), '(`forwardHeaders`, default', '; extend it');
    expect(sorted(headerNames(passage))).to.deep.equal(sorted(DEFAULT_FORWARD_HEADERS));
  });

  it("docs/mounting.md: the exposed CORS headers are the table's", () => {
    const row = cells(mounting.split('\n').find((l) => l.startsWith('| `cors` |'))!);
    const exposes = row[1]!.slice(row[1]!.indexOf(' exposes '));
    expect(sorted(headerNames(exposes))).to.deep.equal(sorted(EXPOSED_RESPONSE_HEADERS));
    const prose = between(mounting, 'and exposes', '. No `cors`');
    expect(sorted(headerNames(prose))).to.deep.equal(sorted(EXPOSED_RESPONSE_HEADERS));
  });

  it('README.md: the compatibility table names every legacy option header, page headers in one row', () => {
    const readme = read('README.md');
    const firstCells = readme
      .split('\n')
      .filter((l) => l.startsWith('| `'))
      .map((l) => cells(l)[0]!);
    const named = new Set(firstCells.flatMap((cell) => codeSpans(cell).map((token) => token.split(':')[0]!)));
    for (const spec of OPTION_HEADERS) expect(named.has(spec.name), spec.name).to.equal(true);
    const pageRow = firstCells.find((cell) => cell.includes('`X-Page-Size`'))!;
    expect(sorted(headerNames(pageRow))).to.deep.equal(sorted(PAGE_COMPOSITION_HEADERS));
  });
});
