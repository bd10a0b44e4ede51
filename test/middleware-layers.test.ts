// Imports in middleware/ run one way, from the router's wiring down to the tables and stores (docs/architecture.md
// draws the folders): each folder imports only the folders its row names, the rows make no circle, no module is
// part of an import circle, and the renderer is reached only through the entries the architecture names.

import { expect } from 'chai';
import path from 'node:path';
import { importCycles } from './helpers/import-cycles.js';
import { moduleImports, sourceFiles, type ModuleImport } from './helpers/module-graph.js';

const REPO = path.resolve(import.meta.dirname, '..', '..');

/** The row of every store backend: a folder under stores/. */
const BACKEND = 'stores/<backend>';

/**
 * What each folder of middleware/ may import besides its own modules (`.` is the entry, index.ts). `renderer` is
 * the renderer's entries below; `compare` the ink comparison, run by the shadow comparer's worker thread.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  // The header table names the renderer option each header sets (RenderOptions' keys and value types).
  'api-table': ['renderer'],
  keys: [],
  workers: [],
  stores: ['keys'],
  // Every backend (stores/memory, stores/redis, stores/postgres, a new one): the seam and the key records, nothing else.
  [BACKEND]: ['stores', 'keys'],
  http: ['api-table', 'keys', 'renderer'],
  events: ['api-table', 'http', 'stores'],
  limits: ['api-table', 'http', 'keys', 'stores', 'events', 'renderer'],
  upstream: ['api-table', 'http', 'stores', 'events', 'workers', 'renderer', 'compare'],
  graphics: ['api-table', 'http', 'workers', 'renderer'],
  fonts: ['api-table', 'http', 'workers', 'renderer'],
  'label-route': ['api-table', 'http', 'keys', 'stores', 'events', 'limits', 'upstream', 'renderer'],
  router: [
    'api-table',
    'http',
    'keys',
    'stores',
    'stores/memory',
    'events',
    'limits',
    'upstream',
    'graphics',
    'fonts',
    'label-route',
    'renderer',
  ],
  ops: ['api-table', 'http', 'stores', 'events', 'router', 'renderer'],
  preview: ['api-table', 'http', 'stores', 'events', 'limits', 'label-route', 'router', 'renderer'],
  // The printer port (zpl-legacy-compat/printer): its feed's seam and the memory feed, events, X-Warnings' records.
  printer: ['stores', 'stores/memory', 'events', 'label-route', 'renderer'],
  // The router's entry (zpl-legacy-compat/router): never the Redis or PostgreSQL backend, which have entries of their own.
  '.': [
    'api-table',
    'http',
    'keys',
    'stores',
    'stores/memory',
    'events',
    'upstream',
    'router',
    'ops',
    'preview',
    'renderer',
  ],
};

/**
 * The renderer modules middleware/ may load: request and error types, the render pool, the image-header reader, and
 * the font-table checker (POST /fonts' worker thread refuses the fonts the renderer would not open).
 */
const RENDERER_ENTRIES = [
  'renderer/api.ts',
  'renderer/errors.ts',
  'renderer/pool/index.ts',
  'renderer/decode/image-header.ts',
  'renderer/decode/font-tables.ts',
];
/** The renderer's own entry, for its types only: it loads the drawing code. */
const RENDERER_TYPES = 'renderer/index.ts';

/** The row that says what `folder` may import. */
const rowOf = (folder: string): string => (folder in MAY_IMPORT || !folder.startsWith('stores/') ? folder : BACKEND);

/** The folder a repository path belongs to, as the table names it. */
function folderOf(file: string): string {
  if (file.startsWith('middleware/')) return path.dirname(path.relative('middleware', file));
  if (file.startsWith('renderer/')) return 'renderer';
  if (file.startsWith('compare/')) return 'compare';
  return `outside: ${file}`;
}

describe('middleware import layers', () => {
  const files = sourceFiles(REPO, 'middleware');
  const graph = new Map<string, ModuleImport[]>(files.map((f) => [f, moduleImports(REPO, f)]));

  it('has a row for every folder, and every row has modules', () => {
    const rows = new Set(files.map((f) => rowOf(folderOf(f))));
    expect([...rows].sort()).to.deep.equal(Object.keys(MAY_IMPORT).sort());
    expect(files.map(folderOf)).to.include.members(['stores/memory', 'stores/redis', 'stores/postgres']);
    expect(files.length, 'modules read').to.be.greaterThan(80);
    // Every import it found names a module that is there (a typo in the pattern would make the checks vacuous).
    expect(graph.get('middleware/router/router.ts')!.map((i) => i.path)).to.include('middleware/limits/authorize.ts');
  });

  it('imports only from its own folder and the folders its row names', () => {
    const wrong = [...graph].flatMap(([f, deps]) => {
      const from = folderOf(f);
      return deps
        .map((d) => ({ to: folderOf(d.path), path: d.path }))
        .filter(({ to }) => to !== from && !MAY_IMPORT[rowOf(from)]!.includes(to))
        .map(({ to, path }) => `${f} -> ${path} (${from} -> ${to})`);
    });
    expect(wrong).to.deep.equal([]);
  });

  it('has rows that make no circle', () => {
    const rows = new Map(
      Object.entries(MAY_IMPORT).map(([f, to]) => [f, to.map(rowOf).filter((t) => t in MAY_IMPORT)]),
    );
    expect(importCycles(rows)).to.deep.equal([]);
  });

  it('has no import cycles', () => {
    const modules = new Map([...graph].map(([f, deps]) => [f, deps.map((d) => d.path)]));
    expect(importCycles(modules)).to.deep.equal([]);
  });

  it('reaches the renderer only through its named entries, and its main entry for types only', () => {
    const reaching = [...graph].flatMap(([f, deps]) =>
      deps
        .filter((d) => d.path.startsWith('renderer/'))
        .filter((d) => !RENDERER_ENTRIES.includes(d.path) && !(d.path === RENDERER_TYPES && d.typeOnly))
        .map((d) => `${f} -> ${d.path}${d.typeOnly ? ' (types)' : ''}`),
    );
    expect(reaching).to.deep.equal([]);
  });
});
