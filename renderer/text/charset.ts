// ^CI: field data bytes to text. 0-13 are code page 850 with a national variant of twelve ASCII
// positions; 27 (1252) and 31-36 are Windows code pages; 28 UTF-8; 29/30 UTF-16 big/little endian.

/** Code page 850, bytes 0x80-0xFF. */
const CP850_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜø£Ø×ƒáíóúñÑªº¿®¬½¼¡«»░▒▓│┤ÁÂÀ©╣║╗╝¢¥┐' +
  '└┴┬├─┼ãÃ╚╔╩╦╠═╬¤ðÐÊËÈıÍÎÏ┘┌█▄¦Ì▀ÓßÔÒõÕµþÞÚÛÙýÝ¯´\u00ad±‗¾¶§÷¸°¨·¹³²■\u00a0';

/** Zebra's code page 850 has the Euro at 15H (the guide's ^CI example remaps it onto the dollar sign). */
const CP850_EURO = 0x15;

/** The ASCII positions the national sets of ^CI 0-13 replace, in this order. */
const NATIONAL_POSITIONS = [0x23, 0x24, 0x40, 0x5b, 0x5c, 0x5d, 0x5e, 0x60, 0x7b, 0x7c, 0x7d, 0x7e];

/**
 * ^CI 0-13: characters at NATIONAL_POSITIONS, as the legacy renderer prints them (read off its output
 * for # @ [ \ ] ^ ` { | }; $ and ~ are not shown there and stay ASCII). A space stands for a blank glyph.
 */
const NATIONAL_SETS: Readonly<Record<number, string>> = {
  0: '#$@[¢]^`{|}~', // USA 1
  1: '#$@ ¢ ^`¼½¾~', // USA 2
  2: '£$@[¢]^`{|}~', // UK
  3: 'ƒ$§[Ĳ]^`{ĳ}~', // Holland
  4: '#$@ÆØÅ^`æøå~', // Denmark/Norway
  5: 'Ü$ÉÄÖÅÜéäöå~', // Sweden/Finland
  6: '#$§ÄÖÜ^`äöü~', // Germany
  7: '£$à[ç]^`é|ù~', // France 1
  8: '#$àâçêîôéùè~', // France 2
  9: '£$§[çé^ùàòè~', // Italy
  10: '#$§¡Ñ¿^`{ñç~', // Spain
  11: '£$ÉÄÖÜ^äëïö~', // Miscellaneous
  12: '#$@[¥]^`{|}~', // Japan (ASCII with Yen)
  13: '#$@[\\]^`{|}~', // Zebra code page 850
};

/** Code page 1252, bytes 0x80-0x9F (the rest is Latin-1); Node's TextDecoder reads these as C1 controls. */
const CP1252_C1 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function decodeCp1252(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b >= 0x80 && b < 0xa0 ? CP1252_C1[b - 0x80] : String.fromCharCode(b);
  return s;
}

const WINDOWS_PAGES: Readonly<Record<number, string>> = {
  31: 'windows-1250',
  33: 'windows-1251',
  34: 'windows-1253',
  35: 'windows-1254',
  36: 'windows-1255',
};

const decoders = new Map<string, TextDecoder>();
function decoder(label: string): TextDecoder {
  let d = decoders.get(label);
  if (!d) decoders.set(label, (d = new TextDecoder(label)));
  return d;
}

/** Each byte's UTF-16 code unit under a national set (its characters are all single code units), made once a set. */
const cp850Tables = new Map<string, Uint16Array>();

function cp850Table(national: string): Uint16Array {
  let table = cp850Tables.get(national);
  if (table) return table;
  table = new Uint16Array(256);
  for (let b = 0; b < 256; b++) {
    const k = NATIONAL_POSITIONS.indexOf(b);
    const ch =
      b >= 0x80 ? CP850_HIGH[b - 0x80]! : b === CP850_EURO ? '€' : k >= 0 ? national[k]! : String.fromCharCode(b);
    table[b] = ch.charCodeAt(0);
  }
  cp850Tables.set(national, table);
  return table;
}

/** Code units turned into a string a chunk at a time (one fromCharCode call a chunk, no string built a character at a time). */
const CHUNK = 4096;

function decodeCp850(bytes: Uint8Array, national: string): string {
  const table = cp850Table(national);
  if (bytes.length <= CHUNK) {
    const units = new Array<number>(bytes.length);
    for (let i = 0; i < bytes.length; i++) units[i] = table[bytes[i]!]!;
    return String.fromCharCode(...units);
  }
  const parts: string[] = [];
  for (let a = 0; a < bytes.length; a += CHUNK) {
    const b = Math.min(bytes.length, a + CHUNK);
    const units = new Array<number>(b - a);
    for (let i = a; i < b; i++) units[i - a] = table[bytes[i]!]!;
    parts.push(String.fromCharCode(...units));
  }
  return parts.join('');
}

/** Decodes field data under ^CI `charset`; `remap` (^CI's pairs, sets 0-13) says which byte's character each byte prints. */
export function decodeFieldText(bytes: Uint8Array, charset: number, remap?: Uint8Array): string {
  const national = NATIONAL_SETS[charset];
  if (national !== undefined) return decodeCp850(remap ? bytes.map((b) => remap[b]) : bytes, national);
  if (charset === 27) return decodeCp1252(bytes);
  const page = WINDOWS_PAGES[charset];
  if (page) return decoder(page).decode(bytes);
  if (charset === 28) return decoder('utf-8').decode(bytes);
  if (charset === 29) return decoder('utf-16be').decode(bytes);
  if (charset === 30) return decoder('utf-16le').decode(bytes);
  // Asian multi-byte sets (14-26) need fonts we do not have: show the single-byte meaning.
  return decodeCp850(bytes, NATIONAL_SETS[0]);
}
