// What a stage claims on the request's work meter and gives back: a buffer it holds for the request stays claimed,
// scratch it drops when it is done is released, so a document of many labels or images holds only what is alive.

import { expect } from 'chai';
import { decodePngToBitmap } from '../renderer/decode/png-decode.js';
import { resample } from '../renderer/outputs/density/bitmap.js';
import { applyEdits } from '../renderer/outputs/density/edits.js';
import { WorkMeter } from '../renderer/work-meter.js';
import { pngSamples } from './helpers/decoder-samples.js';

describe('work meter claims', () => {
  it('keeps a decoded PNG image its pixels; its inflated data and rows are given back', () => {
    for (const png of pngSamples()) {
      const meter = new WorkMeter();
      const bmp = decodePngToBitmap(png, meter);
      expect(meter.used).to.equal(bmp.stride * bmp.height);
    }
  });

  it('claims a resampled bitmap where it is made', () => {
    const meter = new WorkMeter();
    const src = { data: new Uint8Array([0xff, 0xff, 0x00, 0x00]), stride: 1, width: 8, height: 4 };
    const up = resample(src, 4, meter, 'A test bitmap');
    expect(up).to.include({ width: 32, height: 16, stride: 4 });
    expect(meter.used).to.equal(4 * 16);
    expect(() => resample(src, 4, new WorkMeter(63), 'A test bitmap')).to.throw(/^A test bitmap needs 64 bytes/);
  });

  it('writes a converted document once, into bytes claimed at its size', () => {
    const meter = new WorkMeter();
    const zpl = Buffer.from('^XA^FO10,20^FDab^FS^XZ', 'latin1');
    const out = applyEdits(
      zpl,
      [
        { start: 6, end: 11, text: '20,40' },
        { start: 15, end: 15, text: '\xe9' },
      ],
      meter,
    );
    expect(Buffer.from(out).toString('latin1')).to.equal('^XA^FO20,40^FDa\xe9b^FS^XZ');
    expect(meter.used).to.equal(out.length);
  });
});
