// What every entry of the HTTP tables carries, and how their patterns are matched.

/** Why a table entry exists: its text goes into the OpenAPI document. */
export interface Described {
  description: string;
}

/** A table pattern as a RegExp: path segments and header values are matched without regard to case. */
export function segmentPattern(spec: { pattern: string }): RegExp {
  return new RegExp(spec.pattern, 'i');
}
