// The whole command table: every family contributes its own entries.

import type { CommandDef, CommandTable } from './context.js';
import { barcodeCommands } from './barcodes.js';
import { clockCommands } from './clock.js';
import { fieldCommands } from './field.js';
import { graphicCommands } from './graphics.js';
import { labelCommands } from './label.js';
import { printerCommands } from './printer.js';
import { storageCommands } from './storage.js';
import { textCommands } from './text.js';

/** Each family's commands by family name: the table below is their union, and the fuzz harness fuzzes each family. */
export const commandFamilies: Readonly<Record<string, CommandTable>> = {
  printer: printerCommands,
  label: labelCommands,
  field: fieldCommands,
  clock: clockCommands,
  text: textCommands,
  graphics: graphicCommands,
  storage: storageCommands,
  barcodes: barcodeCommands,
};

export const commandTable: CommandTable = Object.assign({}, ...Object.values(commandFamilies));

/** Commands that open a field: those that make a field kind, and those that assemble one marked `field: 'opens'`. */
export function opensField(def: CommandDef): boolean {
  return def.makes !== undefined || def.field === 'opens';
}

/**
 * Commands that belong to the field they stand in (a field drawn as a bitmap drops them): those that make a field
 * kind (barcodes, ^GB...) and those marked `field`. The rest inside a field (^BY, ^FW, ^CF, ^CI...) set what later fields use.
 */
export function belongsToField(def: CommandDef): boolean {
  return def.field !== undefined || def.makes !== undefined;
}
