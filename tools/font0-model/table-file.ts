// Where a fitting tool writes its table: `--out FILE`, else with `--write` the committed table it regenerates, else
// nowhere (it only prints what it fitted). test/fitted-tables.test.ts writes with the first; `npm run cross-validate`
// with the second, in copies of the working tree.

import { fileURLToPath } from 'node:url';

/** `table`: the committed file under renderer/fonts/ (font0-model.ts, ...). */
export function tableFile(argv: readonly string[], table: string): string | undefined {
  const i = argv.indexOf('--out');
  if (i >= 0) {
    const out = argv[i + 1];
    if (!out) throw new Error('--out needs a file');
    return out;
  }
  return argv.includes('--write') ? fileURLToPath(new URL(`../../../renderer/fonts/${table}`, import.meta.url)) : undefined;
}
