// Stored objects and formats: ~DG ^XG ~DY ^IM ^IL ^ID ~DB ~DU ~DT ^DF ^XF. A request is a fresh printer:
// objects live in `ip.printer.objects` for the rest of the document only.

import { RenderError } from '../errors.js';
import { bitmapBytes, checkObjectSize, MAX_OBJECT_BYTES, decodeGraphic, decodeBase64Payload } from '../decode/grf.js';
import { findObject, namePattern, objectName } from '../graphics/objects.js';
import { decodePngToBitmap, isPng } from '../decode/png-decode.js';
import type { StoredObject } from '../model.js';
import type { CommandContext, CommandDef, CommandTable } from './context.js';
import { asCount, int, oneOf, text } from '../zpl/params.js';
import { command, fieldKind } from './define.js';
import { FIELD_PARAMS, fieldCommand } from './field-kinds.js';
import type { Token } from '../zpl/lexer.js';
import { loadOutlineFont } from '../decode/outline-font.js';
import { checkDeclaredSize, payloadAfter, payloadCommand, payloadReporter, type Payload } from './payload.js';

const objectPath = () => text('name');
const byteCount = <N extends string>(name: N) => asCount(int(name, 0, 99999999));

function store(ip: CommandContext, obj: StoredObject): void {
  // A font file is parsed once, when it arrives; its fields then draw from the parsed outlines.
  if (obj.kind === 'font' && obj.bytes) obj.outlines = loadOutlineFont(obj.bytes, obj.name);
  ip.printer.objects.set(obj.name, obj);
}

/** ~DY extension letter -> file extension and what kind of object it is. */
const DY_EXTENSIONS: Record<string, { ext: string; kind: StoredObject['kind'] }> = {
  G: { ext: 'GRF', kind: 'graphic' },
  P: { ext: 'PNG', kind: 'graphic' },
  B: { ext: 'BMP', kind: 'image' },
  T: { ext: 'TTF', kind: 'font' },
  E: { ext: 'TTE', kind: 'font' },
  X: { ext: 'PCX', kind: 'image' },
  O: { ext: 'OTF', kind: 'font' },
  Z: { ext: 'ZPL', kind: 'format' },
};

/** Data bytes of a download: base64 payloads decoded, ASCII hex (A) turned into bytes, binary as is. */
function downloadBytes(ip: CommandContext, data: Payload, ascii: boolean, command: string, param: number): Uint8Array {
  const report = payloadReporter(ip, data, command, param);
  let i = 0;
  while (i < data.bytes.length && (data.bytes[i] === 0x20 || data.bytes[i] === 0x0d || data.bytes[i] === 0x0a)) i++;
  const tag = String.fromCharCode(...data.bytes.subarray(i, i + 5)).toUpperCase();
  if (tag === ':Z64:' || tag === ':B64:') return decodeBase64Payload(data.bytes, i, report);
  if (!ascii) return data.bytes.slice();
  // latin1 via Buffer: spreading a large payload into fromCharCode overflows the call stack.
  const hex = Buffer.from(Buffer.from(data.bytes.filter((c) => c > 0x20)).toString('latin1'), 'hex');
  return new Uint8Array(hex);
}

/** Warns about a payload whose size disagrees with the declared byte count. */
function checkLength(ip: CommandContext, data: Payload, got: number, declared: number | undefined, command: string, param: number): void {
  if (declared === undefined || got === declared) return;
  const where = payloadReporter(ip, data, command, param);
  where(0, data.bytes.length, got < declared
    ? `Object data has ${got} of ${declared} bytes declared`
    : `Object data has ${got} bytes, more than the ${declared} declared; the rest is ignored`);
}

const downloadGraphic: CommandDef = payloadCommand({
  anywhere: true,
  params: [objectPath(), byteCount('totalBytes'), asCount(int('rowBytes', 1, 99999)), text('data')],
  run(ip, { name: rawName, totalBytes: total, rowBytes: row }, tok) {
    if (!rawName) { ip.warn(tok.start, tok.end - tok.start, '~DG', 1, 'Missing object name; ignored'); return; }
    const { name } = objectName(rawName, 'GRF');
    const data = payloadAfter(tok, 3);
    checkDeclaredSize(tok, 1, 'Graphic');
    ip.memory.claim(bitmapBytes(total ?? 0, row ?? 1), `Object ${name}`);
    const bits = decodeGraphic(data.bytes, total ?? 0, row ?? 1, false, payloadReporter(ip, data, '~DG', 4));
    store(ip, { name, kind: 'graphic', bits });
  },
});

const downloadObject: CommandDef = payloadCommand({
  anywhere: true,
  params: [objectPath(), oneOf('format', 'ABCP', 'A'), text('extension'), byteCount('totalBytes'), asCount(int('rowBytes', 0, 99999)), text('data')],
  run(ip, { name: rawName, format, extension, totalBytes: declared, rowBytes: row }, tok) {
    if (!rawName) { ip.warn(tok.start, tok.end - tok.start, '~DY', 1, 'Missing object name; ignored'); return; }
    const letter = (extension ?? 'G').toUpperCase();
    const type = DY_EXTENSIONS[letter] ?? { ext: letter.length === 3 ? letter : 'DAT', kind: 'other' as const };
    const { name } = objectName(rawName, type.ext);
    const data = payloadAfter(tok, 5);
    checkDeclaredSize(tok, 3, `Object ${name}`);
    if (type.ext === 'GRF') {
      ip.memory.claim(bitmapBytes(declared ?? 0, row || 1), `Object ${name}`);
      const bits = decodeGraphic(data.bytes, declared ?? 0, row || 1, format === 'B' || format === 'C', payloadReporter(ip, data, '~DY', 6));
      store(ip, { name, kind: 'graphic', bits });
      return;
    }
    // A is hex, P is a PNG as hex (or base64); B and C are binary.
    ip.memory.claim(Math.min(declared ?? MAX_OBJECT_BYTES, MAX_OBJECT_BYTES), `Object ${name}`);
    const bytes = downloadBytes(ip, data, format === 'A' || format === 'P', '~DY', 6);
    checkObjectSize(bytes.length, `Object ${name}`);
    checkLength(ip, data, bytes.length, declared, '~DY', 6);
    if (type.ext === 'PNG') {
      if (!isPng(bytes)) {
        ip.warn(data.offsets[0] ?? tok.end, data.bytes.length, '~DY', 6, 'Object data is not a PNG image; ignored');
        return;
      }
      try {
        store(ip, { name, kind: 'graphic', bits: decodePngToBitmap(bytes, (n) => ip.memory.claim(n, `Image ${name}`)), bytes });
      } catch (e) {
        if (e instanceof RenderError) throw e;
        ip.warn(data.offsets[0] ?? tok.end, data.bytes.length, '~DY', 6, `PNG image could not be decoded: ${(e as Error).message}`);
      }
      return;
    }
    store(ip, { name, kind: type.kind, bytes });
  },
});

/** ~DU and ~DT: a font as ASCII hex (`d:o.x,size,data`). */
function downloadFont(command: string, ext: string): CommandDef {
  return payloadCommand({
    anywhere: true,
    params: [objectPath(), byteCount('size'), text('data')],
    run(ip, { name: rawName, size }, tok) {
      if (!rawName) { ip.warn(tok.start, tok.end - tok.start, command, 1, 'Missing object name; ignored'); return; }
      const { name } = objectName(rawName, ext);
      const data = payloadAfter(tok, 2);
      checkDeclaredSize(tok, 1, `Object ${name}`);
      ip.memory.claim(Math.min(size ?? MAX_OBJECT_BYTES, MAX_OBJECT_BYTES), `Object ${name}`);
      const bytes = downloadBytes(ip, data, true, command, 3);
      checkObjectSize(bytes.length, `Object ${name}`);
      checkLength(ip, data, bytes.length, size, command, 3);
      store(ip, { name, kind: 'font', bytes });
    },
  });
}

/** ~DB bitmap font: kept whole (all parameters and glyph data), but not drawn yet: text in it prints in a built-in font. */
const downloadBitmapFont: CommandDef = {
  anywhere: true,
  syntax: 'raw',
  run(ip, _args, tok) {
    const raw = tok.raw;
    const comma = raw.indexOf(tok.delimiter);
    const rawName = Buffer.from(raw.subarray(0, comma < 0 ? Math.min(raw.length, 64) : comma)).toString('latin1');
    if (!rawName.trim()) { ip.warn(tok.start, tok.end - tok.start, '~DB', 1, 'Missing object name; ignored'); return; }
    checkObjectSize(raw.length, `Object ${rawName.trim()}`);
    const { name } = objectName(rawName, 'FNT');
    ip.memory.claim(raw.length, `Object ${rawName.trim()}`);
    store(ip, { name, kind: 'font', bytes: raw.slice() });
    ip.log.add({ byteIndex: tok.start, byteSize: tok.end - tok.start, command: '~DB', param: 0,
      message: `Bitmap font ${name} is not drawn; text in it prints in a built-in font`, feature: '~DB' });
  },
};

/**
 * Binds the field drawing a stored object (^XG, ^IM) to the object its name finds now; warns at once when there is
 * none (yet). Returns whether it found one.
 */
function bindObject(ip: CommandContext, kind: 'XG' | 'IM', rawName: string | undefined, tok: Token): boolean {
  const found = rawName && (findObject(ip.printer.objects, rawName, 'GRF') ?? (kind === 'IM' ? findObject(ip.printer.objects, rawName, 'PNG') : undefined));
  if (found) ip.field.object = found;
  else {
    const name = rawName ? objectName(rawName, 'GRF').name : '(none)';
    ip.warn(tok.paramStart, Math.max(0, tok.end - tok.paramStart), '^' + kind, 1, `Object ${name} not found; nothing drawn`);
  }
  return !!found;
}

const graphicField = fieldKind('XG');
const imageField = fieldKind('IM');

// A field whose object is not found forgets its name: a later download of the same name does not reach back to it.
const recallGraphic: CommandDef<typeof FIELD_PARAMS.XG> = command({
  params: FIELD_PARAMS.XG,
  run(ip, args, tok) {
    graphicField.run?.(ip, args, tok);
    if (!bindObject(ip, 'XG', args.name, tok)) ip.field.command = fieldCommand('XG', { ...args, name: undefined });
  },
});

const imageMove: CommandDef<typeof FIELD_PARAMS.IM> = command({
  params: FIELD_PARAMS.IM,
  run(ip, args, tok) {
    imageField.run?.(ip, args, tok);
    if (!bindObject(ip, 'IM', args.name, tok)) ip.field.command = fieldCommand('IM', { ...args, name: undefined });
  },
});

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
      imageMove.run?.(ip, args, tok);
      const f = ip.field;
      f.x = ip.printer.home.x;
      f.y = ip.printer.home.y;
      f.positioned = true;
      ip.finishField();
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
        for (const [k, v] of ip.printer.formats) if (k.slice(2) === name.slice(2)) { tokens = v; break; }
      }
      if (!tokens) {
        ip.warn(tok.paramStart, Math.max(0, tok.end - tok.paramStart), '^XF', 1, `Format ${name} not found; nothing recalled`);
        return;
      }
      ip.replay(tokens, tok.start);
    },
  }),
};
