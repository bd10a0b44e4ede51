#!/usr/bin/env node
// zpl-render: the HTTP API's renderer on the command line (same bytes for the same inputs).
//   zpl-render <file.zpl | -> [--dpmm 8] [--size 4x6] [--index 0] [--format png|pdf|json|zpl|ipl|epl|dpl|sbpl|pcl5|pcl6]
//              [--rotation 0|90|180|270] [--quality grayscale|bitonal] [--pdf vector|raster] [--lint] [-o out.png]
//              [--target-dpmm 6|8|12|24] [--lossy-fields round|bitmap] [--formatter]
//              (ZPL output: X-Target-Dpmm, X-Lossy-Fields, X-Formatter: On)
// JSON, PDF and print jobs without --index are every label (the all-labels path); what a density conversion cannot do
// faithfully goes to standard error, as the HTTP answer's X-Warnings says it.

import fs from 'node:fs';
import { render } from '../renderer/render.js';
import { RenderError } from '../renderer/errors.js';
import { OUTPUT_TYPES, type Dpmm, type RenderFormat, type RenderOptions, type Rotation } from '../renderer/api.js';
import { lineColumn } from '../renderer/text-position.js';

interface CliArgs {
  input: string;
  dpmm: Dpmm;
  widthIn: number;
  heightIn: number;
  index?: number;
  /** What the flags ask of the output, under the renderer's option names (the HTTP headers set the same ones). */
  options: RenderOptions;
  lint: boolean;
  out?: string;
}

const USAGE =
  'usage: zpl-render <file.zpl | -> [--dpmm 8] [--size 4x6] [--index 0] [--format png|pdf|json|zpl|ipl|epl|dpl|sbpl|pcl5|pcl6] [--rotation 0|90|180|270] ' +
  '[--quality grayscale|bitonal] [--pdf vector|raster] [--target-dpmm 6|8|12|24] [--lossy-fields round|bitmap] [--formatter] [--lint] [-o out.png]';

const FORMATS = Object.keys(OUTPUT_TYPES) as RenderFormat[];

function density(v: string): Dpmm {
  const d = v.replace(/dpmm$/i, '');
  if (!['6', '8', '12', '24'].includes(d))
    throw new UsageError(`Unknown print density ${d}; valid values: 6, 8, 12, 24`);
  return Number(d) as Dpmm;
}

class UsageError extends Error {}

function parseArgs(argv: string[]): CliArgs {
  const o: RenderOptions = { format: 'png', rotation: 0, quality: 'grayscale', pdf: 'vector', formatter: false };
  const a: Partial<CliArgs> & { size?: string } = { options: o, lint: false, dpmm: 8 };
  const value = (i: number, flag: string): string => {
    const v = argv[i + 1];
    if (v === undefined) throw new UsageError(`${flag} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    switch (arg) {
      case '--dpmm':
        a.dpmm = density(value(i++, arg));
        break;
      case '--target-dpmm':
        o.targetDpmm = density(value(i++, arg));
        break;
      case '--formatter':
        o.formatter = true;
        break;
      case '--lossy-fields': {
        const v = value(i++, arg).toLowerCase();
        if (v !== 'round' && v !== 'bitmap')
          throw new UsageError(`Invalid lossy fields: ${v}; valid values: round, bitmap`);
        o.lossyFields = v;
        break;
      }
      case '--size':
        a.size = value(i++, arg);
        break;
      case '--index': {
        const v = value(i++, arg);
        if (!/^\d+$/.test(v)) throw new UsageError(`Invalid label index: ${v}`);
        a.index = Number(v);
        break;
      }
      case '--format': {
        const v = value(i++, arg).toLowerCase() as RenderFormat;
        if (!FORMATS.includes(v)) throw new UsageError(`Invalid format: ${v}; valid values: ${FORMATS.join(', ')}`);
        o.format = v;
        break;
      }
      case '--rotation': {
        const v = value(i++, arg);
        if (!['0', '90', '180', '270'].includes(v))
          throw new UsageError('Label rotation must be 0, 90, 180 or 270 degrees');
        o.rotation = Number(v) as Rotation;
        break;
      }
      case '--quality': {
        const v = value(i++, arg).toLowerCase();
        if (v !== 'grayscale' && v !== 'bitonal')
          throw new UsageError(`Invalid quality: ${v}; valid values: grayscale, bitonal`);
        o.quality = v;
        break;
      }
      case '--pdf': {
        const v = value(i++, arg).toLowerCase();
        if (v !== 'vector' && v !== 'raster')
          throw new UsageError(`Invalid PDF mode: ${v}; valid values: vector, raster`);
        o.pdf = v;
        break;
      }
      case '--lint':
        a.lint = true;
        break;
      case '-o':
      case '--output':
        a.out = value(i++, arg);
        break;
      case '-h':
      case '--help':
        process.stdout.write(USAGE + '\n');
        process.exit(0);
        break;
      default:
        if (arg.startsWith('-') && arg !== '-') throw new UsageError(`Unknown option ${arg}`);
        if (a.input !== undefined) throw new UsageError(`Unexpected argument ${arg}`);
        a.input = arg;
    }
  }
  if (a.input === undefined) throw new UsageError(USAGE);
  if ((o.targetDpmm !== undefined || o.formatter) && o.format !== 'zpl')
    throw new UsageError('--target-dpmm and --formatter need --format zpl');
  if (o.lossyFields !== undefined && o.targetDpmm === undefined)
    throw new UsageError('--lossy-fields needs --target-dpmm');
  const [w, h] = parseSize(a.size ?? '4x6');
  return { ...(a as CliArgs), widthIn: w, heightIn: h, index: a.index ?? (o.format === 'png' ? 0 : undefined) };
}

function parseSize(s: string): [number, number] {
  const m = /^(\d*\.?\d+)x(\d*\.?\d+)$/i.exec(s);
  if (!m) throw new UsageError(`Invalid label size: ${s}; expected WIDTHxHEIGHT in inches, e.g. 4x6`);
  const dims = [Number(m[1]), Number(m[2])] as [number, number];
  ['width', 'height'].forEach((name, k) => {
    if (dims[k] > 15) throw new UsageError(`Label ${name} is larger than 15.0 inches`);
    if (dims[k] < 0.001) throw new UsageError(`Label ${name} is less than 0.001 inches`);
  });
  return dims;
}

/** Why a file could not be written, in a few words. */
const WRITE_FAILURES: Record<string, string> = {
  ENOENT: 'no such directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
  ENOSPC: 'disk full',
  EROFS: 'read-only file system',
};

class WriteError extends Error {}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const { format } = args.options;
  if (!args.out && process.stdout.isTTY && format !== 'json' && format !== 'zpl') {
    throw new UsageError(`will not write ${format.toUpperCase()} bytes to a terminal; use -o FILE or a pipe`);
  }
  const zpl = args.input === '-' ? fs.readFileSync(0) : fs.readFileSync(args.input);
  const result = await render(zpl, {
    dpmm: args.dpmm,
    widthIn: args.widthIn,
    heightIn: args.heightIn,
    index: args.index,
    ...args.options,
    now: new Date(),
  });
  for (const w of [...(args.lint ? result.warnings : []), ...(result.notices ?? [])]) {
    const { line, column } = lineColumn(zpl, w.byteIndex);
    process.stderr.write(`${line}:${column} ${w.byteIndex}|${w.byteSize}|${w.command}|${w.param || ''}|${w.message}\n`);
  }
  if (args.out) {
    try {
      fs.writeFileSync(args.out, result.body);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? '';
      throw new WriteError(`cannot write ${args.out}${WRITE_FAILURES[code] ? `: ${WRITE_FAILURES[code]}` : ''}`);
    }
  } else {
    process.stdout.write(result.body);
  }
}

main().catch((e: unknown) => {
  const message =
    e instanceof RenderError || e instanceof UsageError || e instanceof WriteError
      ? e.message
      : e instanceof Error && 'code' in e && e.code === 'ENOENT'
        ? `cannot read ${(e as NodeJS.ErrnoException).path}`
        : 'render failed';
  process.stderr.write(`ERROR: ${message}\n`);
  process.exit(e instanceof UsageError ? 2 : 1);
});
