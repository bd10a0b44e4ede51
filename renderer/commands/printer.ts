// Printer and host commands that change nothing in the picture: accepted silently (not "unknown").

import type { CommandTable } from './context.js';

const FORMAT_NOOPS = ['^MM', '^MN', '^MT', '^MD', '^MF', '^ML', '^MW', '^PR', '^PF', '^PP', '^PA', '^PH', '^JU', '^JM', '^JJ', '^JT',
  '^JZ', '^JB', '^JS', '^JW', '^KN', '^KP', '^KD', '^KL', '^SZ', '^SS', '^ST', '^SE', '^SL', '^SQ', '^SR', '^SX', '^SC', '^SP',
  '^HH', '^HW', '^HF', '^HG', '^HT', '^HV', '^HY', '^HZ', '^NC', '^NI', '^NN', '^NP', '^NS', '^NT', '^NW', '^WD', '^WA', '^WS',
  '^CM', '^CO', '^CV', '^CC', '^CT', '^CD', '^FL', '^LF', '^FE', '^MP', '^ZZ', '^DE', '^XB', '^XS'];
const HOST_NOOPS = ['~JA', '~JC', '~JD', '~JE', '~JF', '~JG', '~JI', '~JL', '~JN', '~JO', '~JP', '~JQ', '~JR', '~JS', '~JX', '~JB',
  '~RO', '~WC', '~WQ', '~WR', '~HS', '~HM', '~HI', '~HD', '~HB', '~HL', '~HQ', '~HU', '~PS', '~PP', '~PH', '~PR', '~SD', '~TA',
  '~CC', '~CT', '~CD', '~KB', '~NC', '~NR', '~NT', '~RV', '~DE', '~DN', '~DS', '~DT', '~CO'];

export const printerCommands: CommandTable = Object.fromEntries([
  ...FORMAT_NOOPS.map((k) => [k, { noop: true, anywhere: k === '^CC' || k === '^CT' || k === '^CD' }]),
  ...HOST_NOOPS.map((k) => [k, { noop: true, anywhere: true }]),
]);
