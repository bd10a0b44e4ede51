// Imports in the renderer run one way: zpl -> interpret -> layout -> backends (no cycles, no import back up).

import { expect } from 'chai';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..', 'renderer');

/** Layer of a renderer module; shared leaves (errors, diagnostics, API types, decoders) sit below everything. */
const LAYERS: [RegExp, number, string][] = [
  [/^(api|errors|diagnostics|memory-budget|bounded-cache)\.ts$|^graphics\/(grf|png-decode|image-header)\.ts$|^fonts\/outline-font\.ts$|^text\/charset\.ts$/, 0, 'shared'],
  [/^zpl\//, 1, 'zpl'],
  [/^(interpreter|model|serial)\.ts$|^commands\/|^graphics\/objects\.ts$/, 2, 'interpret'],
  [/^(layout|text|fonts|graphics|barcodes)\//, 3, 'layout'],
  [/^(raster|encoders)\//, 4, 'backends'],
  [/./, 5, 'entry'],
];

const layerOf = (f: string) => LAYERS.find(([re]) => re.test(f))!;

function modules(dir = ROOT): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = path.join(dir, n);
    return statSync(p).isDirectory() ? modules(p) : p.endsWith('.ts') ? [path.relative(ROOT, p)] : [];
  });
}

function imports(f: string): string[] {
  const src = readFileSync(path.join(ROOT, f), 'utf8');
  return [...src.matchAll(/^(?:import|export)[^'";]*from '(\.[^']+)'/gm)]
    .map((m) => path.normalize(path.join(path.dirname(f), m[1].replace(/\.js$/, '.ts'))))
    .filter((p) => !p.startsWith('..'));
}

describe('renderer import layers', () => {
  const files = modules().filter((f) => !f.startsWith('fonts/measure/')); // measuring tools read rasters on purpose
  const graph = new Map(files.map((f) => [f, imports(f)]));

  it('never imports from a later layer', () => {
    const wrong: string[] = [];
    for (const [f, deps] of graph) {
      const [, from, fromName] = layerOf(f);
      for (const d of deps) {
        const [, to, toName] = layerOf(d);
        if (to > from) wrong.push(`${f} (${fromName}) -> ${d} (${toName})`);
      }
    }
    expect(wrong).to.deep.equal([]);
  });

  it('has no import cycles', () => {
    const state = new Map<string, 1 | 2>();
    const cycles: string[] = [];
    const stack: string[] = [];
    const visit = (f: string) => {
      state.set(f, 1);
      stack.push(f);
      for (const d of graph.get(f) ?? []) {
        if (state.get(d) === 1) cycles.push([...stack.slice(stack.indexOf(d)), d].join(' -> '));
        else if (!state.has(d)) visit(d);
      }
      stack.pop();
      state.set(f, 2);
    };
    for (const f of graph.keys()) if (!state.has(f)) visit(f);
    expect(cycles).to.deep.equal([]);
  });
});
