// Small builders shared by the command families.

import type { CommandDef } from './context.js';
import { namedArgs, type ParamSpec } from '../zpl/params.js';

/** A command that makes the current field a `kind` field (barcodes, graphics): its parameters are kept for the drawer. */
export function fieldKind(kind: string, params: readonly ParamSpec[], extra: Partial<CommandDef> = {}): CommandDef {
  return {
    params,
    run(ip, args, tok) {
      ip.field.kind = kind;
      ip.field.params = args;
      ip.field.args = namedArgs(params, args);
      ip.field.payload = tok.raw;
      if (!ip.field.positioned) ip.field.at = tok.start;
    },
    ...extra,
  };
}

export const int = (name: string, min: number, max: number, def?: number): ParamSpec => ({ name, kind: 'int', min, max, def });
export const float = (name: string, min: number, max: number, def?: number): ParamSpec => ({ name, kind: 'float', min, max, def });
export const oneOf = (name: string, values: string, def?: string): ParamSpec => ({ name, kind: 'enum', values: values.split(''), def });
export const yesNo = (name: string, def?: 'Y' | 'N'): ParamSpec => ({ name, kind: 'bool', def });
export const text = (name: string, def?: string): ParamSpec => ({ name, kind: 'text', def });
export const orientation = (name = 'orientation'): ParamSpec => oneOf(name, 'NRIB');
