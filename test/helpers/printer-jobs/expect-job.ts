// What the print-job tests check of a job, whoever made it (render(), the pool, zpl-render, the HTTP API): each
// language's reader (this folder, written from the manuals) reads it, its set-up must give the label's size and
// density, and each label it prints must hold exactly the dots of the bitonal PNG of the same request.

import { expect } from 'chai';
import type { Dpmm, PrinterLanguage } from '../../../renderer/api.js';
import type { DecodedPng } from '../png.js';
import type { PrintedDots } from './printed.js';
import { readDpl } from './read-dpl.js';
import { readEpl } from './read-epl.js';
import { readIpl } from './read-ipl.js';
import { readPcl5 } from './read-pcl5.js';
import { readPcl6 } from './read-pcl6.js';
import { readSbpl } from './read-sbpl.js';

/** The label as it prints (turned with the request): size in inches and in dots, and its density. */
export interface PrintedLabel {
  dpmm: Dpmm;
  widthIn: number;
  heightIn: number;
  width: number;
  height: number;
}

/** floor(dpmm x 25.4): the dots per inch the legacy service draws at. */
export const DPI: Record<Dpmm, number> = { 6: 152, 8: 203, 12: 304, 24: 609 };
/** PCL 5's Raster Resolution takes 75, 100, 150, 200, 300 or 600: the nearest. */
const PCL5_DPI: Record<Dpmm, number> = { 6: 150, 8: 200, 12: 300, 24: 600 };

/** Each language's reader, and what its set-up must say for the label; returns the labels it prints. */
export const READ_JOB: Record<PrinterLanguage, (job: Uint8Array, p: PrintedLabel) => PrintedDots[]> = {
  epl(job, p) {
    const j = readEpl(job);
    expect([j.labelWidth, j.formLength, j.printDirection], 'EPL q, Q, Z').to.deep.equal([p.width, p.height, 'T']);
    return j.labels;
  },
  sbpl(job, p) {
    const j = readSbpl(job);
    expect(j.media, 'SBPL <ESC>A1').to.deep.equal({ height: p.height, width: p.width });
    return j.labels;
  },
  ipl(job, p) {
    const j = readIpl(job);
    expect([j.advancedMode, j.labelWidth, j.maxLabelLength], 'IPL <ESC>C, <SI>W, <SI>L').to.deep.equal([
      true,
      p.width,
      p.height,
    ]);
    return j.labels;
  },
  dpl(job, p) {
    const j = readDpl(job, p.dpmm);
    expect([j.units, j.printableWidth, j.maxLength, j.dotSize], 'DPL <STX>m, KW, M, D').to.deep.equal([
      'metric',
      Math.round(p.widthIn * 254),
      Math.round(p.heightIn * 254),
      '11',
    ]);
    return j.labels;
  },
  pcl5(job, p) {
    const j = readPcl5(job);
    expect(j.pjl, 'PJL paper size').to.deep.equal({
      PAPERWIDTH: String(Math.round(p.widthIn * 720)),
      PAPERLENGTH: String(Math.round(p.heightIn * 720)),
    });
    expect([j.pageSize, j.orientation, j.resolution], 'PCL &l#A, &l#O, *t#R').to.deep.equal([101, 0, PCL5_DPI[p.dpmm]]);
    for (const page of j.pages) expect([page.x, page.y], 'raster at the page origin').to.deep.equal([0, 0]);
    return j.pages;
  },
  pcl6(job, p) {
    const j = readPcl6(job);
    expect([j.unitsPerMeasure, j.measure], 'BeginSession units').to.deep.equal([[DPI[p.dpmm], DPI[p.dpmm]], 0]);
    for (const page of j.pages) {
      expect([page.orientation, page.customMediaSize, page.customMediaSizeUnits, page.copies]).to.deep.equal([
        0,
        [Math.fround(p.widthIn), Math.fround(p.heightIn)],
        0,
        1,
      ]);
      expect(page.image, 'one dot per unit at the origin').to.deep.equal({
        x: 0,
        y: 0,
        sourceWidth: p.width,
        sourceHeight: p.height,
        destination: [p.width, p.height],
      });
    }
    return j.pages;
  },
};

/** Dots that differ from the PNG (black is grey below 128), and black dots outside it. */
export function dotsUnlike(printed: PrintedDots, png: DecodedPng): number {
  const { width, height, gray } = png;
  let n = 0;
  for (let y = 0; y < height; y++) {
    const ours = y * printed.width,
      theirs = y * width;
    const inside = y < printed.height ? Math.min(width, printed.width) : 0;
    for (let x = 0; x < inside; x++) if (printed.dots[ours + x]! !== (gray[theirs + x]! < 128 ? 1 : 0)) n++;
    for (let x = inside; x < width; x++) if (gray[theirs + x]! < 128) n++;
  }
  // Black past the PNG's right or bottom edge.
  for (let y = 0; y < printed.height; y++)
    for (let x = y < height ? width : 0; x < printed.width; x++) n += printed.dots[y * printed.width + x]!;
  return n;
}

/** The label a request prints: its size in inches turned a quarter with the request, in dots the PNG's. */
export function printedLabel(
  req: { dpmm: Dpmm; widthIn: number; heightIn: number; rotation?: number },
  png: DecodedPng,
): PrintedLabel {
  const quarter = req.rotation === 90 || req.rotation === 270;
  return {
    dpmm: req.dpmm,
    widthIn: quarter ? req.heightIn : req.widthIn,
    heightIn: quarter ? req.widthIn : req.heightIn,
    width: png.width,
    height: png.height,
  };
}

/** Reads a job, checks its set-up against the label, and that it prints one label per PNG, each with the PNG's dots. */
export function expectJobPrints(
  language: PrinterLanguage,
  job: Uint8Array,
  label: PrintedLabel,
  pngs: DecodedPng[],
  what: string,
): void {
  const labels = READ_JOB[language](job, label);
  expect(labels.length, `${what} ${language}: prints`).to.equal(pngs.length);
  labels.forEach((printed, i) => {
    expect(dotsUnlike(printed, pngs[i]!), `${what} ${language}, label ${i + 1}: dots unlike the PNG`).to.equal(0);
  });
}
