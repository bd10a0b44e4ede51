// ^FB field blocks and ^TB text blocks: splitting field text into lines.

import type { Face } from '../fonts/face.js';
import { codePoints, runWidth } from './line.js';

export interface BlockLine {
  text: string;
  /** Dots from the block's left edge to the line's start (justification, hanging indent). */
  indent: number;
  /** Extra dots per space for J justification. */
  spaceStretch: number;
}

/** Splits text at `\&` (the ^FB line break) */
export function hardLines(text: string): string[] {
  return text.split('\\&');
}

/** Greedy word wrap of one paragraph to `width` dots; words longer than a line are broken by character. */
export function wrapParagraph(face: Face, text: string, width: number, firstIndent = 0, nextIndent = 0): string[] {
  const words = text.split(' ');
  const lines: string[] = [];
  let cur = '';
  const fits = (s: string, indent: number) => runWidth(face, codePoints(s, face)) <= width - indent;
  for (const word of words) {
    const indent = lines.length ? nextIndent : firstIndent;
    const candidate = cur === '' ? word : `${cur} ${word}`;
    if (fits(candidate, indent) || (cur === '' && word === '')) { cur = candidate; continue; }
    if (cur !== '') { lines.push(cur); cur = ''; }
    // The word alone: break it by character when it does not fit a whole line.
    let rest = word;
    while (rest !== '' && !fits(rest, lines.length ? nextIndent : firstIndent)) {
      const ind = lines.length ? nextIndent : firstIndent;
      let k = 1;
      while (k < rest.length && fits(rest.slice(0, k + 1), ind)) k++;
      lines.push(rest.slice(0, k));
      rest = rest.slice(k);
    }
    cur = rest;
  }
  lines.push(cur);
  return lines;
}

export interface BlockSpec {
  width: number;
  justify: 'L' | 'C' | 'R' | 'J';
  hangingIndent: number;
}

/** Lays out ^FB text: hard breaks, wrapping, justification. Returns every line (the caller applies max lines). */
export function layoutBlock(face: Face, text: string, spec: BlockSpec): BlockLine[] {
  const out: BlockLine[] = [];
  const paragraphs = hardLines(text);
  paragraphs.forEach((para, pi) => {
    const wrapped = wrapParagraph(face, para, spec.width, 0, spec.hangingIndent);
    wrapped.forEach((line, li) => {
      const indent = li > 0 ? spec.hangingIndent : 0;
      const w = runWidth(face, codePoints(line, face));
      const free = spec.width - indent - w;
      const lastOfParagraph = li === wrapped.length - 1;
      let x = indent;
      let stretch = 0;
      if (spec.justify === 'C') x += Math.floor(free / 2);
      else if (spec.justify === 'R') x += free;
      else if (spec.justify === 'J' && !lastOfParagraph) {
        const spaces = line.split(' ').length - 1;
        if (spaces > 0 && free > 0) stretch = free / spaces;
      }
      out.push({ text: line, indent: x, spaceStretch: stretch });
    });
    void pi;
  });
  return out;
}
