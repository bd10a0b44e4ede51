// Where a fitting tool writes its table: `--out FILE`, else with `--write` the committed table it regenerates, else
// nowhere (it only prints what it fitted). test/fitted-tables.test.ts writes with the first; `npm run cross-validate`
// with the second, in copies of the working tree.

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { crossValidationMark } from '../../bench/holdout.js';

/**
 * The fitted glyph tables under renderer/fonts/, each with its tool under dist/tools/font0-model/, in the order the
 * tools build on each other (the run advances sit on the model): what the tables test and the cross-validation run.
 */
export const FITTED_TABLES: readonly { tool: string; table: string }[] = [
  { tool: 'fit.js', table: 'font0-model.ts' },
  { tool: 'fit-runs.js', table: 'font0-run-advances.ts' },
  { tool: 'fit-device.js', table: 'device-model.ts' },
];

/** `table`: the committed file under renderer/fonts/ (font0-model.ts, ...). */
export function tableFile(argv: readonly string[], table: string): string | undefined {
  const i = argv.indexOf('--out');
  if (i >= 0) {
    const out = argv[i + 1];
    if (!out) throw new Error('--out needs a file');
    return out;
  }
  return argv.includes('--write')
    ? fileURLToPath(new URL(`../../../renderer/fonts/${table}`, import.meta.url))
    : undefined;
}

/** Writes a tool's table to `out`, marked never to commit when fitted with a fold other than 0 held out. */
export function writeTable(out: string, fold: number, text: string): void {
  writeFileSync(out, crossValidationMark(fold) + text);
  console.log(`\nwrote ${path.relative(process.cwd(), out)}`);
}
