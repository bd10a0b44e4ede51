// The hand-off from the interpreter to the drawers: each field carries its command's arguments by name, typed by the
// command's parameter table (numbers, letters, booleans), and the drawer table must cover every drawn kind.

import { expect } from 'chai';
import { interpret } from '../renderer/interpreter.js';
import type { Field, FieldKind, FieldOf } from '../renderer/model.js';
import type { DrawerTable } from '../renderer/display/drawer.js';
import { drawCircle } from '../renderer/graphics/ellipse.js';
import { linearDrawers } from '../renderer/barcodes/linear/index.js';
import {
  barcodeTraits,
  FIELD_KIND_NAMES,
  isBarcodeKind,
  type FieldKindEntry,
  type KindOf,
} from '../renderer/commands/field-kinds.js';
import { commandTable } from '../renderer/commands/index.js';

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

describe('the field kind table', () => {
  it('gives every kind but text its command, named as the kind, and one for each alias, each making that kind', () => {
    const makers = (kind: string) => Object.keys(commandTable).filter((key) => commandTable[key]!.makes === kind);
    for (const kind of FIELD_KIND_NAMES.filter((k) => k !== 'text'))
      expect(makers(kind), kind).to.have.members([
        `^${kind}`,
        ...(barcodeTraits(kind)?.aliases ?? []).map((a) => `^${a}`),
      ]);
    expect(makers('text')).to.deep.equal([]);
  });

  it('makes an Aztec field from ^B0 as from ^BO (an alias is a command of its own)', () => {
    expect(only('^XA^FO10,10^B0N,4^FDabc^FS^XZ', 'BO').args).to.include({ magnification: 4 });
    expect(isBarcodeKind('B0'), 'an alias is not a kind').to.equal(false);
  });

  it('has a barcode family for every barcode command and none for the others', () => {
    const barcodes = Object.keys(commandTable).filter((key) => isBarcodeKind(commandTable[key]!.makes ?? ''));
    expect(barcodes).to.include.members(['^BC', '^BQ', '^B0', '^BR', '^BT']);
    expect(barcodes).to.not.include.members(['^BY', '^GB', '^FO', '^A']);
  });
});

// Compile-time: a drawer table that leaves out a kind does not type-check (tsc fails on an unused expect-error).
// @ts-expect-error ^GE has no drawer in this table
export const missingDrawer: DrawerTable<'GC' | 'GE'> = { GC: drawCircle };

// The family tables are typed from the kind table: leaving out one of its linear kinds does not type-check either.
const { BC: _code128, ...withoutCode128 } = linearDrawers;
// @ts-expect-error ^BC is a linear kind and has no drawer in this table
export const missingLinearDrawer: DrawerTable<KindOf<'linear'>> = withoutCode128;

// @ts-expect-error a barcode entry says where its module width comes from and whether its reader samples a grid
export const barcodeWithoutTraits: FieldKindEntry = { family: 'matrix', params: [] };
