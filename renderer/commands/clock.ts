// Real-time clock commands: ^FC (the clock indicators of a field's data) and ^SO (secondary and tertiary clocks).
// The clock reads the time the document is rendered (the render request's `now`), in UTC.

import type { CommandContext, CommandTable } from './context.js';
import { formatClock, offsetClock } from '../zpl/clock.js';
import { asCount, int, oneOf, text } from '../zpl/params.js';
import { command } from './define.js';

/** A clock indicator parameter: its first byte (the guide allows any character but the prefixes and delimiter). */
function indicator(value: string | undefined): number | undefined {
  return value ? value.charCodeAt(0) & 0xff : undefined;
}

/** The field's data with its clock codes replaced by the clocks' readings (no-op for a field without ^FC). */
export function clockData(ip: CommandContext, data: Uint8Array): Uint8Array {
  const indicators = ip.field.clock;
  if (!indicators) return data;
  const offsets = ip.printer.clockOffsets;
  return formatClock(data, indicators, [ip.now, offsetClock(ip.now, offsets[2]), offsetClock(ip.now, offsets[3])]);
}

// Offsets are quantities of time: the same at every density.
const offset = (name: string) => asCount(int(name, -32000, 32000, 0));

export const clockCommands: CommandTable = {
  '^FC': command({
    field: 'opens',
    params: [text('primary', '%'), text('secondary'), text('tertiary')],
    run: (ip, { primary, secondary, tertiary }) => {
      ip.field.clock = [indicator(primary), indicator(secondary), indicator(tertiary)];
      // ^FC after the data still applies to it.
      if (ip.field.data) ip.field.data = clockData(ip, ip.field.data);
    },
  }),
  '^SO': command({
    params: [
      oneOf('clock', '23'),
      offset('months'),
      offset('days'),
      offset('years'),
      offset('hours'),
      offset('minutes'),
      offset('seconds'),
    ],
    run: (ip, { clock, ...o }) => {
      if (clock) ip.printer.clockOffsets = { ...ip.printer.clockOffsets, [clock]: o };
    },
  }),
};
