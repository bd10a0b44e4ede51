// Small builders shared by the command families.

import type { CommandDef } from './context.js';
import type { ParamSpec } from '../zpl/params.js';
import { FIELD_KINDS, fieldCommand, type FieldKind, type FieldParams } from './field-kinds.js';

/** A command definition, its `run` typed by its parameter table. */
export function command<const P extends readonly ParamSpec[] = readonly []>(def: CommandDef<P>): CommandDef<P> {
  return def;
}

/** A command that makes the current field a `kind` field (barcodes, graphics): its arguments are kept for the drawer. */
export function fieldKind<K extends FieldKind>(kind: K): CommandDef<FieldParams<K>> {
  return {
    makes: kind,
    params: FIELD_KINDS[kind].params,
    run(ip, args, tok) {
      ip.field.command = fieldCommand(kind, args);
      ip.field.payload = tok.raw;
      if (!ip.field.positioned) ip.field.at = tok.start;
    },
  };
}
