// ^FB field blocks and ^TB text blocks: splitting field text into lines.

import type { Face } from '../fonts/face.js';
import { codePoints, runAdvance } from './line.js';

export interface BlockLine {
  text: string;
  /** Dots from the block's left edge to the line's start (justification, hanging indent). */
  indent: number;
  /** Extra dots per space for J justification. */
  spaceStretch: number;
}

/** Splits field bytes at `\&` (the ^FB line break), before character-set decoding turns the backslash into something else. */
export function hardLineBytes(data: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i + 1 < data.length; i++) {
    if (data[i] === 0x5c && data[i + 1] === 0x26) {
      out.push(data.subarray(start, i));
      start = i + 2;
      i++;
    }
  }
  out.push(data.subarray(start));
  return out;
}

/** Greedy word wrap of one paragraph to `width` dots; words longer than a line are broken by character. */
export function wrapParagraph(face: Face, text: string, width: number, firstIndent = 0, nextIndent = 0): string[] {
  const adv = (s: string) => runAdvance(face, codePoints(s, face));
  const space = adv(' ');
  const room = (lineCount: number) => width - (lineCount ? nextIndent : firstIndent);
  const lines: string[] = [];
  let cur = '';
  let curWidth = 0; // unrounded advance of `cur`; lines are measured rounded, as runWidth does
  for (const word of text.split(' ')) {
    const wordWidth = adv(word);
    const candidate = cur === '' ? wordWidth : curWidth + space + wordWidth;
    if (Math.round(candidate) <= room(lines.length) || (cur === '' && word === '')) {
      cur = cur === '' ? word : `${cur} ${word}`;
      curWidth = candidate;
      continue;
    }
    if (cur !== '') {
      lines.push(cur);
      cur = '';
      curWidth = 0;
    }
    // The word alone: break it by character when it does not fit a whole line.
    let piece = '',
      pieceWidth = 0;
    for (const ch of word) {
      const w = adv(ch);
      if (piece !== '' && Math.round(pieceWidth + w) > room(lines.length)) {
        lines.push(piece);
        piece = '';
        pieceWidth = 0;
      }
      piece += ch;
      pieceWidth += w;
    }
    cur = piece;
    curWidth = pieceWidth;
  }
  lines.push(cur);
  return lines;
}

export interface BlockSpec {
  width: number;
  justify: 'L' | 'C' | 'R' | 'J';
  hangingIndent: number;
}

/** Lays out ^FB paragraphs (the text between `\&` breaks): wrapping, justification. Returns every line (the caller applies max lines). */
export function layoutBlock(face: Face, paragraphs: readonly string[], spec: BlockSpec): BlockLine[] {
  const out: BlockLine[] = [];
  paragraphs.forEach((para, pi) => {
    const wrapped = wrapParagraph(face, para, spec.width, 0, spec.hangingIndent);
    const brokenByHand = pi < paragraphs.length - 1;
    wrapped.forEach((line, li) => {
      const indent = li > 0 ? spec.hangingIndent : 0;
      const lastOfParagraph = li === wrapped.length - 1;
      // The legacy renderer centres a line as if it ended with a space, except a line ended by \&.
      const trailingSpace = spec.justify === 'C' && !(lastOfParagraph && brokenByHand);
      const exact = runAdvance(face, codePoints(trailingSpace ? `${line} ` : line, face));
      const free = spec.width - indent - Math.round(exact);
      let x = indent;
      let stretch = 0;
      // On the whole dot nearest the exact centre, a tie to the left: centring the width rounded first put USPS's
      // "PRIORITY MAIL®" (h65 w55, 388.95 dots) a dot left of the legacy's (usps_priority_mail 0.893 -> 0.932).
      if (spec.justify === 'C') x += Math.ceil((spec.width - indent - exact) / 2 - 0.5);
      else if (spec.justify === 'R') x += free;
      else if (spec.justify === 'J' && !lastOfParagraph) {
        const spaces = line.split(' ').length - 1;
        if (spaces > 0 && free > 0) stretch = free / spaces;
      }
      out.push({ text: line, indent: x, spaceStretch: stretch });
    });
  });
  return out;
}
