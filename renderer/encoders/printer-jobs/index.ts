// One encoder per printer language, each reading the same 1-bit label dots (label-dots.ts).

import type { PrinterLanguage } from '../../api.js';
import { encodeDpl } from './dpl.js';
import { encodeEpl } from './epl.js';
import { encodeIpl } from './ipl.js';
import type { PrintJobEncoder } from './label-dots.js';
import { encodePcl5 } from './pcl5.js';
import { encodePcl6 } from './pcl6.js';
import { encodeSbpl } from './sbpl.js';

export { bitonalDots } from './label-dots.js';
export type { LabelDots, PrintJobEncoder, PrintJobSetup } from './label-dots.js';

export const PRINT_JOB_ENCODERS: Readonly<Record<PrinterLanguage, PrintJobEncoder>> = {
  ipl: encodeIpl,
  epl: encodeEpl,
  dpl: encodeDpl,
  sbpl: encodeSbpl,
  pcl5: encodePcl5,
  pcl6: encodePcl6,
};
