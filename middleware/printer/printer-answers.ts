// What the printer answers to host queries, in the ZPL II guide's shapes: ~HS three <STX>...<ETX><CR><LF>
// strings, ~HI the identification, ~HQES the error and warning flags.

const STX = '\x02';
const ETX = '\x03';
const END = `${ETX}\r\n`;

/** The printer's state as the answers report it. */
export interface PrinterStatus {
  paperOut: boolean;
  paused: boolean;
  /** Label length in dots (^LL, or the configured size). */
  labelLength: number;
  /** Formats received and not yet printed (held while paused or out of paper). */
  formatsInBuffer: number;
  /** Labels still to print of the held formats. */
  labelsRemaining: number;
  /** Graphics stored in memory. */
  graphics: number;
  /** ^MM's mode letter, for ~HS's print mode digit. */
  printMode?: string;
}

const PRINT_MODES: Readonly<Record<string, number>> = { R: 0, P: 1, T: 2, C: 3, A: 4, D: 5 };

const digits = (n: number, width: number): string =>
  String(Math.max(0, Math.min(n, 10 ** width - 1))).padStart(width, '0');
const flag = (on: boolean): string => (on ? '1' : '0');

/**
 * ~HS: string 1 `aaa,b,c,dddd,eee,f,g,h,iii,j,k,l` (interface settings, paper out, pause, label length, formats in
 * buffer, buffer full, diagnostic mode, partial format, unused, corrupt RAM, under and over temperature); string 2
 * `mmm,n,o,p,q,r,s,t,uuuuuuuu,v,www` (function settings, unused, head up, ribbon out, thermal transfer, print mode,
 * print width mode, label waiting, labels remaining, format while printing, graphics stored); string 3 `xxxx,y`
 * (password, static RAM installed).
 */
export function hostStatus(s: PrinterStatus): string {
  // 9600 baud, 8 data bits, 1 stop bit, no parity, Xon/Xoff: what printers report on a network port too.
  const one = ['030', flag(s.paperOut), flag(s.paused), digits(s.labelLength, 4), digits(s.formatsInBuffer, 3)];
  one.push('0', '0', '0', '000', '0', '0', '0');
  const mode = PRINT_MODES[s.printMode ?? 'T'] ?? 2;
  const two = [
    '001',
    '0',
    '0',
    '0',
    '0',
    String(mode),
    '0',
    '0',
    digits(s.labelsRemaining, 8),
    '1',
    digits(s.graphics, 3),
  ];
  return `${STX}${one.join(',')}${END}${STX}${two.join(',')}${END}${STX}1234,0${END}`;
}

/** ~HI: model, firmware, dots per millimetre and memory, as `<STX>model,version,dpmm,memory<ETX><CR><LF>`. */
export function hostIdentification(model: string, dpmm: number, memoryKb: number): string {
  return `${STX}${model},V1.0.0,${dpmm},${memoryKb}KB${END}`;
}

/** ~HQES: an error flag set means an error is present; media out is bit 1 of the errors' low group. */
export function hostQueryErrors(s: PrinterStatus): string {
  const errors = s.paperOut ? '1 00000000 00000001' : '0 00000000 00000000';
  // Paused is not an error: firmware reports it in ~HS, and warnings carry no pause bit.
  return `${STX}\r\n\r\n  PRINTER STATUS\r\n    ERRORS:         ${errors}\r\n    WARNINGS:       0 00000000 00000000\r\n${END}`;
}
