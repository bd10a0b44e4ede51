#!/usr/bin/env node
// zpl-render: the HTTP API's renderer on the command line (same bytes for the same inputs); USAGE says every flag.
// JSON, PDF and print jobs without --index are every label (the all-labels path); what a density conversion cannot do
// faithfully goes to standard error, as the HTTP answer's X-Warnings says it.

import fs from 'node:fs';
import { render } from '../renderer/render.js';
import { RenderError } from '../renderer/errors.js';
import {
  omittedLine,
  OUTPUT_TYPES,
  type Dpmm,
  type RenderFormat,
  type RenderOptions,
  type Rotation,
} from '../renderer/api.js';
import { lineColumn } from '../renderer/text-position.js';
import {
  answeredHelpOrVersion,
  badValue,
  orList,
  parseCommandLine,
  reportedUsageError,
  shown,
  UsageError,
  type FlagSpec,
} from './cli-args.js';

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

const FORMATS = Object.keys(OUTPUT_TYPES) as RenderFormat[];

/** The flags, with what each takes: the usage line and every error are made from this table. */
const FLAGS = {
  dpmm: { takes: '6, 8, 12 or 24 (dots per millimetre)' },
  size: { takes: 'WIDTHxHEIGHT in inches, each from 0.001 to 15' },
  index: { takes: 'a label index, 0 for the first' },
  format: { takes: orList(FORMATS) },
  rotation: { takes: '0, 90, 180 or 270 (degrees)' },
  quality: { takes: 'grayscale or bitonal' },
  pdf: { takes: 'vector or raster' },
  'target-dpmm': { takes: '6, 8, 12 or 24 (dots per millimetre)' },
  'lossy-fields': { takes: 'round or bitmap' },
  formatter: {},
  lint: {},
  output: { takes: 'a file name', short: 'o' },
  help: { short: 'h' },
  version: {},
} satisfies Record<string, FlagSpec>;

const USAGE = `usage: zpl-render <file.zpl | -> [options]

Renders ZPL (a file, or - for standard input) as the HTTP API does, to a file (-o) or standard output; the same
bytes as the HTTP answer for the same inputs. Warnings go to standard error, one a line. Exit status: 0 rendered,
1 the ZPL could not be rendered or the output written, 2 a bad command line. It reads no environment variable.

options
  --dpmm N             ${FLAGS.dpmm.takes}; default 8
  --size WxH           ${FLAGS.size.takes}; default 4x6
  --index N            ${FLAGS.index.takes}; default 0 for PNG, every label for the other formats
  --format F           ${FLAGS.format.takes}; default png
  --rotation R         ${FLAGS.rotation.takes}: turns a PNG or a print job (X-Rotation); default 0
  --quality Q          ${FLAGS.quality.takes}: an 8-bit grey or a 1-bit PNG (X-Quality); default grayscale
  --pdf MODE           ${FLAGS.pdf.takes}: a PDF of paths and text, or of pictures; default vector
  --target-dpmm N      ${FLAGS['target-dpmm'].takes}: ZPL converted to that density; needs --format zpl
  --lossy-fields L     ${FLAGS['lossy-fields'].takes}: what a conversion cannot keep exact; needs --target-dpmm
  --formatter          ZPL output laid out one command a line (X-Formatter: On); needs --format zpl
  --lint               also print the linter's warnings (X-Linter: On); past 100, a count by command
  -o, --output FILE    ${FLAGS.output.takes} to write; default standard output (never a terminal for PNG or PDF)
  -h, --help           this text
  --version            the package version`;

type FlagName = keyof typeof FLAGS;
/** The flags that take a value. */
type ValueFlag = { [K in FlagName]: (typeof FLAGS)[K] extends { takes: string } ? K : never }[FlagName];

/** The value of a flag among `allowed` (any case), or a UsageError saying what the flag takes. */
function oneOf<T extends string>(name: ValueFlag, value: string, allowed: readonly T[]): T {
  const v = value.toLowerCase() as T;
  if (!allowed.includes(v)) throw badValue(`--${name}`, FLAGS[name].takes, value);
  return v;
}

function density(name: 'dpmm' | 'target-dpmm', value: string): Dpmm {
  return Number(oneOf(name, value.replace(/dpmm$/i, ''), ['6', '8', '12', '24'])) as Dpmm;
}

function parseArgs(argv: string[]): CliArgs {
  const { flags, positionals } = parseCommandLine('zpl-render', argv, FLAGS);
  const text = (name: ValueFlag): string | undefined => flags.get(name) as string | undefined;
  const read = <T>(name: ValueFlag, parse: (value: string) => T): T | undefined => {
    const value = text(name);
    return value === undefined ? undefined : parse(value);
  };
  const [input, extra] = positionals;
  if (extra !== undefined) throw new UsageError(`unexpected argument ${shown(extra)}: zpl-render reads one ZPL file`);
  if (input === undefined)
    throw new UsageError('a ZPL file to render is needed, or - for standard input (zpl-render --help)');
  const format = read('format', (v) => oneOf('format', v, FORMATS)) ?? 'png';
  const targetDpmm = read('target-dpmm', (v) => density('target-dpmm', v));
  const formatter = flags.has('formatter');
  if ((targetDpmm !== undefined || formatter) && format !== 'zpl')
    throw new UsageError('--target-dpmm and --formatter need --format zpl');
  const lossyFields = read('lossy-fields', (v) => oneOf('lossy-fields', v, ['round', 'bitmap'] as const));
  if (lossyFields !== undefined && targetDpmm === undefined) throw new UsageError('--lossy-fields needs --target-dpmm');
  const index = read('index', (v) => {
    if (!/^\d{1,9}$/.test(v)) throw badValue('--index', FLAGS.index.takes, v);
    return Number(v);
  });
  const [widthIn, heightIn] = parseSize(text('size') ?? '4x6');
  const out = text('output');
  return {
    input,
    dpmm: read('dpmm', (v) => density('dpmm', v)) ?? 8,
    widthIn,
    heightIn,
    index: index ?? (format === 'png' ? 0 : undefined),
    options: {
      format,
      ...(targetDpmm !== undefined && { targetDpmm }),
      ...(lossyFields !== undefined && { lossyFields }),
      formatter,
      rotation: (read('rotation', (v) => Number(oneOf('rotation', v, ['0', '90', '180', '270']))) ?? 0) as Rotation,
      quality: read('quality', (v) => oneOf('quality', v, ['grayscale', 'bitonal'] as const)) ?? 'grayscale',
      pdf: read('pdf', (v) => oneOf('pdf', v, ['vector', 'raster'] as const)) ?? 'vector',
    },
    lint: flags.has('lint'),
    ...(out !== undefined && { out }),
  };
}

function parseSize(s: string): [number, number] {
  const m = /^(\d*\.?\d+)x(\d*\.?\d+)$/i.exec(s);
  const dims = m ? ([Number(m[1]), Number(m[2])] as [number, number]) : undefined;
  if (!dims || dims.some((d) => d > 15 || d < 0.001)) throw badValue('--size', FLAGS.size.takes, s);
  return dims;
}

/** Why a file could not be read, in a few words. */
const READ_FAILURES: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
};

/** The ZPL to render; a file that cannot be read is a bad argument. */
function readInput(input: string): Buffer {
  try {
    return input === '-' ? fs.readFileSync(0) : fs.readFileSync(input);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    throw new UsageError(`cannot read ${shown(input)}${READ_FAILURES[code] ? `: ${READ_FAILURES[code]}` : ''}`);
  }
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

async function main(argv: string[]): Promise<void> {
  const args = parseArgs(argv);
  const { format } = args.options;
  if (!args.out && process.stdout.isTTY && format !== 'json' && format !== 'zpl') {
    throw new UsageError(`will not write ${format.toUpperCase()} bytes to a terminal; use -o FILE or a pipe`);
  }
  const zpl = readInput(args.input);
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
  if (args.lint && result.warningsOmitted) process.stderr.write(`${omittedLine(result.warningsOmitted)}\n`);
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

const argv = process.argv.slice(2);
if (!answeredHelpOrVersion('zpl-render', argv, USAGE)) {
  main(argv).catch((e: unknown) => {
    if (reportedUsageError(e)) return;
    const message = e instanceof RenderError || e instanceof WriteError ? e.message : 'render failed';
    process.stderr.write(`ERROR: ${message}\n`);
    process.exitCode = 1;
  });
}
