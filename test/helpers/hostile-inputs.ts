// The hostile inputs of issue 50, byte for byte: each once answered slowly, held a thread or grew the memory without
// bound. test/hostile-budget.test.ts asserts their answers; bench/hostile-budget.ts times them against a server.

import { deflateSync } from 'node:zlib';
import { crc16Xmodem } from '../../renderer/decode/grf.js';

export interface HostileInput {
  name: string;
  zpl: Buffer;
  /** The request's headers beyond the key (what made it costly). */
  headers: Record<string, string>;
  /** The same request as render() options. */
  render: { format: 'zpl' | 'json' | 'png'; dpmm: 6 | 8; targetDpmm?: 24; index?: number };
}

/** `:Z64:` data as Z64 wants it: zlib, base64, and the CRC-16/XMODEM of the base64 text. */
function z64(bytes: Uint8Array): string {
  const base64 = deflateSync(bytes).toString('base64');
  const crc = crc16Xmodem(Buffer.from(base64, 'latin1')).toString(16).toUpperCase().padStart(4, '0');
  return `:Z64:${base64}:${crc}`;
}

/** 2,000,000 bytes of 0xFF in 2.6 KB, converted from 6 to 24 dpmm: 256 million target pixels. */
export function conversionInput(): HostileInput {
  const zpl = `^XA^FO0,0^GFA,2000000,2000000,250,${z64(new Uint8Array(2_000_000).fill(0xff))}^FS^XZ`;
  return {
    name: '2.6 KB ^GFA converted 6 -> 24 dpmm',
    zpl: Buffer.from(zpl, 'latin1'),
    headers: { Accept: 'application/zpl', 'X-Target-Dpmm': '24' },
    render: { format: 'zpl', dpmm: 6, targetDpmm: 24 },
  };
}

/** 300,000 unknown commands: 300,000 diagnostics. */
export function unknownCommandsInput(): HostileInput {
  return {
    name: '^QQ x 300,000',
    zpl: Buffer.from(`^XA${'^QQ'.repeat(300_000)}^FO10,10^FDx^FS^XZ`, 'latin1'),
    headers: { Accept: 'image/png' },
    render: { format: 'png', dpmm: 8, index: 0 },
  };
}

/** A ~DB font of 900,000 `#`: a malformed glyph each. */
export function bitmapFontInput(): HostileInput {
  return {
    name: '~DB font of 900,000 #',
    zpl: Buffer.from(`~DBR:BIG.FNT,N,10,10,8,2,1,X,${'#'.repeat(900_000)}^XA^FO10,10^FDx^FS^XZ`, 'latin1'),
    headers: { Accept: 'image/png' },
    render: { format: 'png', dpmm: 8, index: 0 },
  };
}

/** ^IS/^IL doubling: 1,000 bytes of field data saved and loaded back 10 times (1,024 copies), as JSON. */
export function saveLoadInput(): HostileInput {
  const zpl = `^XA^FO10,10^A0,20^FD${'Q'.repeat(1000)}^FS^ISR:A.GRF${'^ILR:A.GRF^ISR:A.GRF'.repeat(10)}^XZ`;
  return {
    name: '^IS/^IL doubling, 10 rounds, as JSON',
    zpl: Buffer.from(zpl, 'latin1'),
    headers: { Accept: 'application/json' },
    render: { format: 'json', dpmm: 8 },
  };
}

export const HOSTILE_INPUTS: readonly (() => HostileInput)[] = [
  conversionInput,
  unknownCommandsInput,
  bitmapFontInput,
  saveLoadInput,
];
