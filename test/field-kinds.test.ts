// The hand-off from the interpreter to the drawers: each field carries its command's arguments by name, typed by the
// command's parameter table (numbers, letters, booleans), and the drawer table must cover every drawn kind.

import { expect } from 'chai';
import { interpret } from '../renderer/interpreter.js';
import type { Field, FieldKind, FieldOf } from '../renderer/model.js';
import type { DrawerTable } from '../renderer/display/drawer.js';
import { drawCircle } from '../renderer/graphics/ellipse.js';

function fields(zpl: string): Field[] {
  return interpret(new TextEncoder().encode(zpl), 8).labels.flatMap((l) => l.fields);
}

function only<K extends FieldKind>(zpl: string, kind: K): FieldOf<K> {
  const [f] = fields(zpl);
  expect(f.kind).to.equal(kind);
  return f as FieldOf<K>;
}

describe('field arguments as the drawers get them', () => {
  it('reads Y/N parameters as booleans, defaults included', () => {
    const bc = only('^XA^FO10,10^BCN,100,N,Y^FD123^FS^XZ', 'BC');
    expect(bc.args).to.include({
      orientation: 'N',
      height: 100,
      line: false,
      lineAbove: true,
      checkDigit: false,
      mode: 'N',
    });
  });

  it('leaves a parameter without a default undefined when omitted, for the drawer to settle (^FW, ^BY)', () => {
    const bc = only('^XA^FO10,10^BC^FD123^FS^XZ', 'BC');
    expect(bc.args.orientation).to.equal(undefined);
    expect(bc.args.height).to.equal(undefined);
    expect(bc.args.line).to.equal(true);
  });

  it('gives ^GB sizes in dots whatever the ^MU units', () => {
    const gb = only('^XA^MUM^FO0,0^GB10,5,1,W,2^FS^XZ', 'GB');
    expect(gb.args).to.deep.equal({ width: 80, height: 40, thickness: 8, color: 'W', rounding: 2 });
  });

  it('makes plain field data a text field with no arguments', () => {
    const text = only('^XA^FO10,10^A0N,30^FDHello^FS^XZ', 'text');
    expect(text.args).to.deep.equal({});
    expect(text.font).to.include({ name: '0', height: 30 });
  });

  it('forgets the name of a recalled graphic that does not exist when the field is made', () => {
    const xg = only('^XA^FO0,0^XGR:NONE.GRF,2,3^FS^XZ', 'XG');
    expect(xg.args).to.deep.equal({ name: undefined, magnificationX: 2, magnificationY: 3 });
    expect(xg.object).to.equal(undefined);
  });
});

// Compile-time: a drawer table that leaves out a kind does not type-check (tsc fails on an unused expect-error).
// @ts-expect-error ^GE has no drawer in this table
export const missingDrawer: DrawerTable<'GC' | 'GE'> = { GC: drawCircle };
