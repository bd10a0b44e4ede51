// Imports in the renderer run one way, down the layers below (docs/architecture.md draws them): no cycles, and no
// import back up except the ones listed in ALLOWED_UP, each with its reason.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { importCycles } from './helpers/import-cycles.js';
import { moduleImports, sourceFiles } from './helpers/module-graph.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..', 'renderer');

/**
 * The renderer's layers, lowest first; a module may import from its own layer and the ones before it. Drawers sit
 * between the display list they fill and the layout that calls them: fonts < text < graphics and barcodes.
 */
const LAYERS: Array<{ name: string; files: RegExp }> = [
  {
    name: 'shared',
    files:
      /^(api|errors|diagnostics|work-meter|steps|cost-estimate|bounded-cache|text-position)\.ts$|^decode\/|^text\/charset\.ts$/,
  },
  { name: 'zpl', files: /^zpl\// },
  { name: 'interpret', files: /^(interpreter|model|serial-number)\.ts$|^commands\/|^graphics\/objects\.ts$/ },
  { name: 'display', files: /^display\// },
  { name: 'fonts', files: /^fonts\// },
  { name: 'text', files: /^text\// },
  { name: 'graphics and barcodes', files: /^(graphics|barcodes)\// },
  { name: 'layout', files: /^layout\// },
  { name: 'backends', files: /^(raster|encoders)\// },
  { name: 'entry', files: /./ },
];

/** The only imports allowed to run back up a layer (at most 2), as `from -> to`. */
const ALLOWED_UP: string[] = [];

const layerOf = (f: string): number => LAYERS.findIndex((l) => l.files.test(f));

const modules = (): string[] => sourceFiles(ROOT);

/** Relative imports and re-exports of a module (type-only ones included: they tie the layers as much). */
const imports = (f: string): string[] => moduleImports(ROOT, f).map((i) => i.path);

/** The drawing path: from the command tables to the display list. */
const DRAWING_PATH = /^(commands|barcodes|graphics|text|layout|display)\//;
/** Casts to a primitive left in the drawing path, at most (types flow from the parameter tables to the drawers). */
const MAX_PRIMITIVE_CASTS = 10;

describe('renderer import layers', () => {
  const files = modules();
  const graph = new Map(files.map((f) => [f, imports(f)]));

  it('knows every layer it checks (each has modules)', () => {
    for (const [i, l] of LAYERS.entries())
      expect(
        files.some((f) => layerOf(f) === i),
        l.name,
      ).to.equal(true);
    expect(files).to.include.members([
      'display/display-list.ts',
      'display/canvas.ts',
      'display/drawer.ts',
      'layout/layout.ts',
    ]);
  });

  it('imports nothing outside renderer/', () => {
    const outside = [...graph].flatMap(([f, deps]) =>
      deps.filter((d) => d.startsWith('..')).map((d) => `${f} -> ${d}`),
    );
    expect(outside).to.deep.equal([]);
  });

  it(`never imports from a later layer, except the ${ALLOWED_UP.length} listed`, () => {
    expect(ALLOWED_UP.length).to.be.at.most(2);
    const up: string[] = [];
    for (const [f, deps] of graph) {
      for (const d of deps) if (layerOf(d) > layerOf(f)) up.push(`${f} -> ${d}`);
    }
    const described = up.map((e) => {
      const [f, d] = e.split(' -> ');
      return `${e} (${LAYERS[layerOf(f)].name} -> ${LAYERS[layerOf(d)].name})`;
    });
    expect(described.filter((_, i) => !ALLOWED_UP.includes(up[i]))).to.deep.equal([]);
    // A listed exception that no longer exists is removed from the list.
    expect(ALLOWED_UP.filter((e) => !up.includes(e))).to.deep.equal([]);
  });

  it(`has at most ${MAX_PRIMITIVE_CASTS} casts to number, string or boolean in the drawing path`, () => {
    const drawing = files.filter((f) => DRAWING_PATH.test(f));
    expect(drawing.length, 'modules in the drawing path').to.be.greaterThan(40);
    const casts = drawing.flatMap((f) =>
      readFileSync(path.join(ROOT, f), 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          /\bas (number|string|boolean)\b/.test(line.replace(/\/\/.*$|^\s*\*.*$/, '')) ? [`${f}:${i + 1}`] : [],
        ),
    );
    expect(casts.length, casts.join('\n')).to.be.at.most(MAX_PRIMITIVE_CASTS);
  });

  it('has no import cycles', () => {
    expect(importCycles(graph)).to.deep.equal([]);
  });
});
