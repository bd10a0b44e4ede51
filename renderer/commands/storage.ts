// Stored objects and formats: ~DG ^XG ~DY ^IM ^IL ^ID ~DB ~DU ~DT ^DF ^XF. A request is a fresh printer:
// objects live in `ip.printer.objects` for the rest of the document only.

import { RenderError } from '../errors.js';
import {
  checkObjectSize,
  MAX_OBJECT_BYTES,
  decodeGraphic,
  decodeBase64Payload,
  type Bitmap,
  type PayloadSpec,
} from '../decode/grf.js';
import type { DecodeMeter } from '../decode/meter.js';
import { DRIVES, findObject, namePattern, objectName, transferPairs } from '../graphics/objects.js';
import { decodePngToBitmap, isPng } from '../decode/png-decode.js';
import { decodeBmpToBitmap, isBmp } from '../decode/bmp-decode.js';
import type { StoredObject } from '../model.js';
import type { CommandContext, CommandDef, CommandTable } from './context.js';
import { asCount, inDots, int, oneOf, text, yesNo } from '../zpl/params.js';
import { command, fieldKind } from './define.js';
import { fieldCommand, type FieldParams } from './field-kinds.js';
import type { Token } from '../zpl/lexer.js';
import { readDownloadedFont } from '../decode/outline-font.js';
import { decodeBitmapFont } from '../decode/bitmap-font.js';
import { checkDeclaredSize, payloadAfter, payloadCommand, payloadReporter, type Payload } from './payload.js';

const objectPath = () => text('name');
const byteCount = <N extends string>(name: N) => asCount(int(name, 0, 99999999));

/** Where a download's data is, for a warning about it. */
interface DataAt {
  data: Payload;
  command: string;
  param: number;
}

function store(ip: CommandContext, obj: StoredObject, at?: DataAt): void {
  // A font file is parsed once, when it arrives; its fields then draw from the parsed outlines.
  if (obj.kind === 'font' && obj.bytes) {
    const font = readDownloadedFont(obj.bytes, obj.name, ip.meter);
    obj.outlines = typeof font === 'string' ? null : font;
    if (typeof font === 'string' && at)
      payloadReporter(
        ip,
        at.data,
        at.command,
        at.param,
      )(0, at.data.bytes.length, `Font ${obj.name} could not be read (${font}); its text is drawn in font 0`);
  }
  ip.printer.objects.set(obj.name, obj);
}

/** ~DY extension letter -> file extension and what kind of object it is. */
const DY_EXTENSIONS: Record<string, { ext: string; kind: StoredObject['kind'] }> = {
  G: { ext: 'GRF', kind: 'graphic' },
  P: { ext: 'PNG', kind: 'graphic' },
  B: { ext: 'BMP', kind: 'graphic' },
  T: { ext: 'TTF', kind: 'font' },
  E: { ext: 'TTE', kind: 'font' },
  X: { ext: 'PCX', kind: 'image' },
  O: { ext: 'OTF', kind: 'font' },
  Z: { ext: 'ZPL', kind: 'format' },
};

/** ~DY images decoded to bitmaps when they arrive, by file extension: their pixels are claimed from the memory budget. */
const IMAGE_DECODERS: Record<
  string,
  { is(b: Uint8Array): boolean; decode(b: Uint8Array, meter: DecodeMeter, what: string): Bitmap }
> = {
  PNG: { is: isPng, decode: decodePngToBitmap },
  BMP: { is: isBmp, decode: decodeBmpToBitmap },
};

/** Data bytes of a download: base64 payloads decoded, ASCII hex (A) turned into bytes, binary as is. */
function downloadBytes(
  ip: CommandContext,
  data: Payload,
  ascii: boolean,
  spec: PayloadSpec,
  command: string,
  param: number,
): Uint8Array {
  const report = payloadReporter(ip, data, command, param);
  let i = 0;
  while (i < data.bytes.length && (data.bytes[i] === 0x20 || data.bytes[i] === 0x0d || data.bytes[i] === 0x0a)) i++;
  const tag = String.fromCharCode(...data.bytes.subarray(i, i + 5)).toUpperCase();
  if (tag === ':Z64:' || tag === ':B64:') return decodeBase64Payload(data.bytes, i, spec, ip.meter, report);
  ip.meter.charge(data.bytes.length);
  if (!ascii) return data.bytes.slice();
  // latin1 via Buffer: spreading a large payload into fromCharCode overflows the call stack.
  const hex = Buffer.from(Buffer.from(data.bytes.filter((c) => c > 0x20)).toString('latin1'), 'hex');
  return new Uint8Array(hex.buffer, hex.byteOffset, hex.length); // the decoded bytes themselves, not a copy
}

/** Warns about a payload whose size disagrees with the declared byte count. */
function checkLength(
  ip: CommandContext,
  data: Payload,
  got: number,
  declared: number | undefined,
  command: string,
  param: number,
): void {
  if (declared === undefined || got === declared) return;
  const where = payloadReporter(ip, data, command, param);
  where(
    0,
    data.bytes.length,
    got < declared
      ? `Object data has ${got} of ${declared} bytes declared`
      : `Object data has ${got} bytes, more than the ${declared} declared; the rest is ignored`,
  );
}

const downloadGraphic: CommandDef = payloadCommand({
  anywhere: true,
  params: [objectPath(), byteCount('totalBytes'), asCount(int('rowBytes', 1, 99999)), text('data')],
  run(ip, { name: rawName, totalBytes: total, rowBytes: row }, tok) {
    if (!rawName) {
      ip.warn(tok.start, tok.end - tok.start, '~DG', 1, 'Missing object name; ignored');
      return;
    }
    const { name } = objectName(rawName, 'GRF');
    const data = payloadAfter(tok, 3);
    checkDeclaredSize(tok, 1, 'Graphic');
    const bits = decodeGraphic(
      data.bytes,
      { totalBytes: total ?? 0, rowBytes: row ?? 1, binary: false, what: `Object ${name}` },
      ip.meter,
      payloadReporter(ip, data, '~DG', 4),
    );
    store(ip, { name, kind: 'graphic', bits });
  },
});

const downloadObject: CommandDef = payloadCommand({
  anywhere: true,
  params: [
    objectPath(),
    oneOf('format', 'ABCP', 'A'),
    text('extension'),
    byteCount('totalBytes'),
    asCount(int('rowBytes', 0, 99999)),
    text('data'),
  ],
  run(ip, { name: rawName, format, extension, totalBytes: declared, rowBytes: row }, tok) {
    if (!rawName) {
      ip.warn(tok.start, tok.end - tok.start, '~DY', 1, 'Missing object name; ignored');
      return;
    }
    const letter = (extension ?? 'G').toUpperCase();
    const type = DY_EXTENSIONS[letter] ?? { ext: letter.length === 3 ? letter : 'DAT', kind: 'other' as const };
    const { name } = objectName(rawName, type.ext);
    const data = payloadAfter(tok, 5);
    checkDeclaredSize(tok, 3, `Object ${name}`);
    if (type.ext === 'GRF') {
      const bits = decodeGraphic(
        data.bytes,
        {
          totalBytes: declared ?? 0,
          rowBytes: row || 1,
          binary: format === 'B' || format === 'C',
          what: `Object ${name}`,
        },
        ip.meter,
        payloadReporter(ip, data, '~DY', 6),
      );
      store(ip, { name, kind: 'graphic', bits });
      return;
    }
    // A is hex, P is a PNG as hex (or base64); B and C are binary.
    const expected = Math.min(declared ?? MAX_OBJECT_BYTES, MAX_OBJECT_BYTES);
    ip.memory.claim(expected, `Object ${name}`);
    const spec = { declared: expected, what: `Object ${name}` };
    const bytes = downloadBytes(ip, data, format === 'A' || format === 'P', spec, '~DY', 6);
    checkObjectSize(bytes.length, `Object ${name}`);
    checkLength(ip, data, bytes.length, declared, '~DY', 6);
    const image = IMAGE_DECODERS[type.ext];
    if (image) {
      if (!image.is(bytes)) {
        ip.warn(
          data.offsets[0] ?? tok.end,
          data.bytes.length,
          '~DY',
          6,
          `Object data is not a ${type.ext} image; ignored`,
        );
        return;
      }
      try {
        store(ip, {
          name,
          kind: 'graphic',
          bits: image.decode(bytes, ip.meter, `Image ${name}`),
          bytes,
        });
      } catch (e) {
        if (e instanceof RenderError) throw e;
        ip.warn(
          data.offsets[0] ?? tok.end,
          data.bytes.length,
          '~DY',
          6,
          `${type.ext} image could not be decoded: ${(e as Error).message}`,
        );
      }
      return;
    }
    store(ip, { name, kind: type.kind, bytes }, { data, command: '~DY', param: 6 });
  },
});

/** ~DU and ~DT: a font as ASCII hex (`d:o.x,size,data`). */
function downloadFont(command: string, ext: string): CommandDef {
  return payloadCommand({
    anywhere: true,
    params: [objectPath(), byteCount('size'), text('data')],
    run(ip, { name: rawName, size }, tok) {
      if (!rawName) {
        ip.warn(tok.start, tok.end - tok.start, command, 1, 'Missing object name; ignored');
        return;
      }
      const { name } = objectName(rawName, ext);
      const data = payloadAfter(tok, 2);
      checkDeclaredSize(tok, 1, `Object ${name}`);
      const expected = Math.min(size ?? MAX_OBJECT_BYTES, MAX_OBJECT_BYTES);
      ip.memory.claim(expected, `Object ${name}`);
      const bytes = downloadBytes(ip, data, true, { declared: expected, what: `Object ${name}` }, command, 3);
      checkObjectSize(bytes.length, `Object ${name}`);
      checkLength(ip, data, bytes.length, size, command, 3);
      store(ip, { name, kind: 'font', bytes }, { data, command, param: 3 });
    },
  });
}

/**
 * ~DBd:o.x,a,h,w,base,space,#char,©,data: a bitmap font, its glyphs decoded when it arrives and drawn where ^A@ or
 * ^CW names it. The glyph bitmaps count against the object size and the document's memory budget, as ~DG graphics do.
 */
const downloadBitmapFont: CommandDef = payloadCommand({
  anywhere: true,
  // The cell sizes are the glyph bitmaps' own dots: density conversion keeps ~DB as sent (and says so), never scaling them apart.
  params: [
    objectPath(),
    oneOf('orientation', 'N', 'N'),
    inDots(int('height', 1, 32000)),
    inDots(int('width', 1, 32000)),
    inDots(int('baseline', 0, 32000)),
    inDots(int('space', 0, 32000)),
    asCount(int('charCount', 1, 256)),
    text('copyright'),
    text('data'),
  ],
  run(ip, { name: rawName, height, width, baseline, space, charCount }, tok) {
    const { name } = objectName(rawName || 'UNKNOWN', 'FNT');
    checkObjectSize(tok.raw.length, `Object ${name}`);
    // The glyph data starts at the first # after the copyright (which may itself hold the delimiter).
    const data = payloadAfter(tok, 7);
    let total = 0;
    const font = decodeBitmapFont(
      {
        cellHeight: height ?? 1,
        cellWidth: width ?? 1,
        baseline: baseline ?? height ?? 1,
        space: space ?? width ?? 1,
        charCount,
      },
      data.bytes,
      payloadReporter(ip, data, '~DB', 9),
      {
        claim(bytes, what) {
          total += bytes;
          checkObjectSize(total, what);
          ip.meter.claim(bytes, what);
        },
        charge: (units) => ip.meter.charge(units),
      },
      `Object ${name}`,
    );
    store(ip, { name, kind: 'font', bitmapFont: font });
  },
});

/**
 * Binds the field drawing a stored object (^XG, ^IM) to the object its name finds now; warns at once when there is
 * none (yet). Returns whether it found one.
 */
function bindObject(ip: CommandContext, kind: 'XG' | 'IM', rawName: string | undefined, tok: Token): boolean {
  const found =
    rawName &&
    (findObject(ip.printer.objects, rawName, 'GRF') ??
      (kind === 'IM'
        ? (findObject(ip.printer.objects, rawName, 'PNG') ?? findObject(ip.printer.objects, rawName, 'BMP'))
        : undefined));
  if (found) ip.field.object = found;
  else {
    const name = rawName ? objectName(rawName, 'GRF').name : '(none)';
    ip.warn(
      tok.paramStart,
      Math.max(0, tok.end - tok.paramStart),
      '^' + kind,
      1,
      `Object ${name} not found; nothing drawn`,
    );
  }
  return !!found;
}

/** The field whose saved image was copied into the label draws nothing itself. */
function forgetObject(ip: CommandContext): void {
  ip.field.command = undefined;
  ip.field.object = undefined;
}

const graphicField = fieldKind('XG');
const imageField = fieldKind('IM');

// A field whose object is not found forgets its name: a later download of the same name does not reach back to it.
const recallGraphic: CommandDef<FieldParams<'XG'>> = {
  ...graphicField,
  run(ip, args, tok) {
    graphicField.run?.(ip, args, tok);
    if (!bindObject(ip, 'XG', args.name, tok)) ip.field.command = fieldCommand('XG', { ...args, name: undefined });
    else if (
      placeSavedImage(
        ip,
        ip.field.object!,
        ip.field.x,
        ip.field.y,
        tok,
        '^XG',
        args.magnificationX > 1 || args.magnificationY > 1,
      )
    )
      forgetObject(ip);
  },
};

const imageMove: CommandDef<FieldParams<'IM'>> = {
  ...imageField,
  run(ip, args, tok) {
    imageField.run?.(ip, args, tok);
    if (!bindObject(ip, 'IM', args.name, tok)) ip.field.command = fieldCommand('IM', { ...args, name: undefined });
    else if (placeSavedImage(ip, ip.field.object!, ip.field.x, ip.field.y, tok, '^IM', false)) forgetObject(ip);
  },
};

/** ~EG / ^EG: every downloaded graphic (`*.GRF` on every drive) is erased, as `^ID*:*.GRF` would. */
const eraseGraphics: CommandDef = command({
  anywhere: true,
  run(ip) {
    for (const d of DRIVES) {
      const pattern = namePattern(`${d}:*.GRF`, 'GRF');
      for (const key of [...ip.printer.objects.keys()]) if (pattern.test(key)) ip.printer.objects.delete(key);
    }
  },
});

/** What one field of a saved image (^IS) is taken to cost when copied into a label: a bound on ^IS/^IL doubling. */
const SAVED_FIELD_BYTES = 512;

/**
 * The fields of a saved image (^IS) copied into the label being made, moved by (dx, dy): the saved label's fields
 * drawn again, so every backend draws them as it drew the first label. Returns whether `obj` was a saved image.
 */
function placeSavedImage(
  ip: CommandContext,
  obj: StoredObject,
  dx: number,
  dy: number,
  tok: Token,
  kind: string,
  magnified: boolean,
): boolean {
  const label = ip.label;
  if (!obj.fields || !label) return false;
  if (magnified)
    ip.warn(
      tok.paramStart,
      Math.max(0, tok.end - tok.paramStart),
      kind,
      2,
      `Saved image ${obj.name} is drawn unmagnified`,
    );
  ip.memory.claim(obj.fields.length * SAVED_FIELD_BYTES, `Image ${obj.name}`);
  for (const f of obj.fields) label.fields.push({ ...f, x: f.x + dx, y: f.y + dy });
  return true;
}

export const storageCommands: CommandTable = {
  '~DG': downloadGraphic,
  '~DY': downloadObject,
  '~DU': downloadFont('~DU', 'TTF'),
  '~DT': downloadFont('~DT', 'DAT'),
  '~DB': downloadBitmapFont,
  '^XG': recallGraphic,
  '^IM': imageMove,
  // ^IL: a stored image as the label's background, always at the label home (a field of its own).
  '^IL': command({
    params: [objectPath()],
    run(ip, args, tok) {
      if (ip.fieldHasContent()) ip.finishField();
      const f = ip.field;
      f.x = ip.printer.home.x;
      f.y = ip.printer.home.y;
      f.positioned = true;
      imageMove.run?.(ip, args, tok);
      ip.finishField();
    },
  }),
  '~EG': eraseGraphics,
  '^EG': { ...eraseGraphics, anywhere: false },
  // ^TOs:o.x,d:o.x: the copies share the stored bitmap or bytes (objects are never changed in place).
  '^TO': command({
    params: [text('source'), text('destination')],
    run(ip, { source, destination }, tok) {
      if (!source && !destination) return; // a bare ^TO is ignored (ZPL II guide)
      const t = transferPairs(
        [...ip.printer.objects.keys(), ...ip.printer.formats.keys()],
        source ?? '',
        destination ?? '',
      );
      if ('ignored' in t) {
        ip.warn(tok.paramStart, Math.max(0, tok.end - tok.paramStart), '^TO', t.param, t.ignored);
        return;
      }
      for (const { from, to } of t.copies) {
        const obj = ip.printer.objects.get(from);
        if (obj) ip.printer.objects.set(to, { ...obj, name: to });
        const format = ip.printer.formats.get(from);
        if (format) ip.printer.formats.set(to, format);
      }
    },
  }),
  // ^ISd:o.x,p: the label so far saved as an image (its fields, drawn again where ^IL/^XG/^IM recall it); p=N: not printed.
  '^IS': command({
    params: [objectPath(), yesNo('print', 'Y')],
    run(ip, { name: rawName, print }) {
      const label = ip.label;
      if (!label) return;
      if (ip.fieldHasContent()) ip.finishField();
      const { name } = objectName(rawName || 'UNKNOWN', 'GRF');
      ip.memory.claim(label.fields.length * SAVED_FIELD_BYTES, `Image ${name}`);
      ip.printer.objects.set(name, { name, kind: 'graphic', fields: label.fields.slice() });
      if (!print) label.storesFormat = true;
    },
  }),
  '^ID': command({
    anywhere: true,
    params: [objectPath()],
    run(ip, { name: rawName }) {
      if (!rawName) return;
      const pattern = namePattern(rawName, 'GRF');
      for (const key of [...ip.printer.objects.keys()]) if (pattern.test(key)) ip.printer.objects.delete(key);
    },
  }),
  '^DF': command({
    params: [objectPath()],
    run(ip, { name: rawName }) {
      const label = ip.label;
      if (!label) return;
      const { name } = objectName(rawName ?? 'UNKNOWN', 'ZPL');
      label.capturing = { name, tokens: [] };
      label.storesFormat = true;
    },
  }),
  '^XF': command({
    params: [objectPath()],
    run(ip, { name: rawName }, tok) {
      const { name, driveGiven } = objectName(rawName ?? 'UNKNOWN', 'ZPL');
      let tokens = ip.printer.formats.get(name);
      if (!tokens && !driveGiven) {
        for (const [k, v] of ip.printer.formats)
          if (k.slice(2) === name.slice(2)) {
            tokens = v;
            break;
          }
      }
      if (!tokens) {
        ip.warn(
          tok.paramStart,
          Math.max(0, tok.end - tok.paramStart),
          '^XF',
          1,
          `Format ${name} not found; nothing recalled`,
        );
        return;
      }
      ip.replay(tokens, tok.start);
    },
  }),
};
