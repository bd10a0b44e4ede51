// Path, Accept and header validation of the legacy router: every 400/404/406 text of the spec.

import { expect } from 'chai';
import request from 'supertest';
import { buildApp, KEYS, labelsPath, recordingRender } from './helpers/http-app.js';
import type { Express } from 'express';

const ZPL = '^XA^FO10,10^GB50,50,50^FS^XZ';

describe('HTTP: path and header validation', () => {
  let app: Express;
  let render: ReturnType<typeof recordingRender>;

  beforeEach(async () => {
    render = recordingRender();
    // A fixed clock: render requests carry `now`, and tests compare whole requests.
    const now = new Date('2026-06-01T12:00:00.000Z');
    ({ app } = await buildApp({ render, now: () => now }));
  });

  const post = (path: string) => request(app).post(path).set('X-API-Key', KEYS.all).type('form').send(ZPL);

  function expectPlain(res: request.Response, status: number, text: string): void {
    expect(res.status).to.equal(status);
    expect(res.headers['content-type']).to.match(/^text\/plain/);
    expect(res.text).to.equal(text);
  }

  describe('print density', () => {
    for (const dpmm of ['6dpmm', '8dpmm', '12dpmm', '24dpmm', '6', '8', '12', '24']) {
      it(`accepts ${dpmm}`, async () => {
        const res = await post(labelsPath(dpmm, '4x6', '0'));
        expect(res.status).to.equal(200);
        expect(render.calls[0]!.req.dpmm).to.equal(Number.parseInt(dpmm, 10));
      });
    }
    for (const dpmm of ['7dpmm', '300dpi', '8dpm', 'x', '08']) {
      it(`rejects ${dpmm} with 400, not 404`, async () => {
        expectPlain(
          await post(labelsPath(dpmm, '4x6', '0')),
          400,
          `ERROR: Unknown print density ${dpmm}; valid values: 6, 8, 12, 24`,
        );
        expect(render.calls).to.have.length(0);
      });
    }
    it('rejects a bad density on the GET and all-labels endpoints too', async () => {
      const get = await request(app)
        .get(labelsPath('9', '4x6', '0', encodeURIComponent(ZPL)))
        .set('X-API-Key', KEYS.all);
      expectPlain(get, 400, 'ERROR: Unknown print density 9; valid values: 6, 8, 12, 24');
      const all = await post(labelsPath('9', '4x6')).set('Accept', 'application/pdf');
      expectPlain(all, 400, 'ERROR: Unknown print density 9; valid values: 6, 8, 12, 24');
    });
  });

  describe('label dimensions', () => {
    const cases: Array<[string, string]> = [
      ['15.1x6', 'ERROR: Label width is larger than 15.0 inches'],
      ['4x16', 'ERROR: Label height is larger than 15.0 inches'],
      ['0x6', 'ERROR: Label width is less than 0.001 inches'],
      ['4x0.0009', 'ERROR: Label height is less than 0.001 inches'],
    ];
    for (const [size, text] of cases) {
      it(`${size} -> ${text}`, async () => {
        expectPlain(await post(labelsPath('8', size, '0')), 400, text);
      });
    }
    for (const size of ['4', 'ax6', '4x', '4x6x2', '-4x6', '4,5x6', '4 x6']) {
      it(`rejects the malformed size ${JSON.stringify(size)}`, async () => {
        const res = await post(labelsPath('8', encodeURIComponent(size), '0'));
        expectPlain(res, 400, `ERROR: Invalid label size ${size}; expected {width}x{height} in inches, e.g. 4x6`);
      });
    }
    it('passes the bounds themselves and decimal sizes through', async () => {
      for (const size of ['15x15', '0.001x0.001', '2.25x1.25', '.5x4.']) {
        expect((await post(labelsPath('8', size, '0'))).status, size).to.equal(200);
      }
      expect(render.calls.map((c) => [c.req.widthIn, c.req.heightIn])).to.deep.equal([
        [15, 15],
        [0.001, 0.001],
        [2.25, 1.25],
        [0.5, 4],
      ]);
    });
  });

  describe('label index', () => {
    for (const index of ['-1', 'one', '1.5', '1e3']) {
      it(`rejects ${index}`, async () => {
        expectPlain(
          await post(labelsPath('8', '4x6', index)),
          400,
          `ERROR: Invalid label index ${index}; expected a whole number 0 or greater`,
        );
      });
    }
    it('passes the index to the renderer', async () => {
      await post(labelsPath('8', '4x6', '7'));
      expect(render.calls[0]!.req.index).to.equal(7);
    });
  });

  describe('Accept', () => {
    const formatFor = async (accept?: string): Promise<string | number> => {
      const req = post(labelsPath('8', '4x6', '0'));
      const res = await (accept === undefined ? req : req.set('Accept', accept));
      return res.status === 200 ? render.calls.at(-1)!.req.format : res.status;
    };
    it('defaults to PNG (absent, image/png, */*)', async () => {
      expect(await formatFor()).to.equal('png');
      expect(await formatFor('image/png')).to.equal('png');
      expect(await formatFor('*/*')).to.equal('png');
    });
    it('gives PDF for application/pdf', async () => {
      expect(await formatFor('application/pdf')).to.equal('pdf');
      expect(await formatFor('application/pdf;q=0.9, image/png;q=0.1')).to.equal('pdf');
    });
    for (const accept of ['application/json', 'text/plain', 'application/epl', 'image/jpeg']) {
      it(`answers ${accept} with 406 and the supported formats`, async () => {
        expectPlain(
          await post(labelsPath('8', '4x6', '0')).set('Accept', accept),
          406,
          'ERROR: HTTP 406 Not Acceptable\nimage/png, application/pdf',
        );
        expect(render.calls).to.have.length(0);
      });
    }
  });

  describe('endpoints', () => {
    it('renders all labels to one PDF without an index, with or without a trailing slash', async () => {
      for (const path of [labelsPath('8', '4x6'), `${labelsPath('8', '4x6')}/`]) {
        const res = await post(path).set('Accept', 'application/pdf');
        expect(res.status).to.equal(200);
        expect(res.headers['content-type']).to.equal('application/pdf');
        expect(res.headers['content-disposition']).to.equal('inline; filename="label.pdf"');
      }
      expect(render.calls.map((c) => [c.req.format, c.req.index])).to.deep.equal([
        ['pdf', undefined],
        ['pdf', undefined],
      ]);
    });
    it('answers PNG on the all-labels endpoint with 404', async () => {
      expectPlain(await post(labelsPath('8', '4x6')).set('Accept', 'image/png'), 404, 'ERROR: HTTP 404 Not Found');
      expectPlain(await post(labelsPath('8', '4x6')), 404, 'ERROR: HTTP 404 Not Found');
      expect(render.calls).to.have.length(0);
    });
    for (const [method, path] of [
      ['get', `${'/compatibility/legacy/v1'}/printers/8dpmm/labels/4x6/0`],
      ['get', '/compatibility/legacy/v1/nothing-here'],
      ['post', '/compatibility/legacy/v1/printers/8dpmm/images/4x6/0'],
      ['put', '/compatibility/legacy/v1/printers/8dpmm/labels/4x6/0'],
    ] as const) {
      it(`answers ${method.toUpperCase()} ${path} with 404`, async () => {
        expectPlain(await request(app)[method](path).set('X-API-Key', KEYS.all), 404, 'ERROR: HTTP 404 Not Found');
      });
    }
    it('takes the ZPL of a GET from the URL-decoded last path segment(s)', async () => {
      const zpl = '^XA^FO10,10^FDa+b/c%41&d?^FS^XZ';
      const res = await request(app)
        .get(labelsPath('8', '4x6', '0', encodeURIComponent(zpl)))
        .set('X-API-Key', KEYS.all);
      expect(res.status).to.equal(200);
      expect(render.calls[0]!.zpl.toString('utf8')).to.equal(zpl);
    });
    it('answers an undecodable GET path with a plain-text 400', async () => {
      const res = await request(app)
        .get(labelsPath('8', '4x6', '0', '^XA%E0%A4%A^XZ'))
        .set('X-API-Key', KEYS.all);
      expectPlain(res, 400, 'ERROR: Malformed request URL');
    });
  });

  describe('X-Rotation and X-Quality', () => {
    it('passes 0, 90, 180 and 270 for PNG', async () => {
      for (const r of ['0', '90', '180', '270']) await post(labelsPath('8', '4x6', '0')).set('X-Rotation', r);
      expect(render.calls.map((c) => c.req.rotation)).to.deep.equal([0, 90, 180, 270]);
    });
    it('reads an empty or blank X-Rotation as none (the labelary gem sends `X-Rotation:` on every request)', async () => {
      for (const r of ['', '  '])
        expect((await post(labelsPath('8', '4x6', '0')).set('X-Rotation', r)).status).to.equal(200);
      expect(render.calls.map((c) => c.req.rotation)).to.deep.equal([0, 0]);
    });
    for (const r of ['45', '-90', '360', 'ninety', ' 9 0 ']) {
      it(`rejects X-Rotation ${JSON.stringify(r)}`, async () => {
        expectPlain(
          await post(labelsPath('8', '4x6', '0')).set('X-Rotation', r),
          400,
          'ERROR: Label rotation must be 0, 90, 180 or 270 degrees',
        );
      });
    }
    it('does not rotate PDF output', async () => {
      await post(labelsPath('8', '4x6', '0'))
        .set('X-Rotation', '90')
        .set('Accept', 'application/pdf');
      expect(render.calls[0]!.req.rotation).to.equal(undefined);
    });
    it('maps Bitonal in any case to bitonal and anything else to the default', async () => {
      for (const q of ['Bitonal', 'BITONAL', 'bitonal', 'Grayscale', 'sepia']) {
        expect((await post(labelsPath('8', '4x6', '0')).set('X-Quality', q)).status).to.equal(200);
      }
      expect(render.calls.map((c) => c.req.quality)).to.deep.equal([
        'bitonal',
        'bitonal',
        'bitonal',
        'grayscale',
        'grayscale',
      ]);
    });
  });

  describe('PDF page headers (validated only)', () => {
    const pdf = (headers: Record<string, string>, size = '4x6') =>
      post(labelsPath('8', size, '0'))
        .set('Accept', 'application/pdf')
        .set(headers);

    const invalid: Array<[string, string, string]> = [
      ['X-Page-Size', 'A3', 'ERROR: Invalid page size: A3'],
      ['X-Page-Size', 'tabloid', 'ERROR: Invalid page size: tabloid'],
      ['X-Page-Orientation', 'sideways', 'ERROR: Invalid page orientation: sideways'],
      ['X-Page-Layout', '2by3', 'ERROR: Invalid page layout: 2by3'],
      ['X-Page-Layout', '0x1', 'ERROR: Invalid page layout: 0x1'],
      ['X-Page-Layout', '1x0', 'ERROR: Invalid page layout: 1x0'],
      ['X-Page-Align', 'middle', 'ERROR: Invalid alignment: middle'],
      ['X-Page-Vertical-Align', 'left', 'ERROR: Invalid vertical alignment: left'],
      ['X-Label-Border', 'dotted', 'ERROR: Invalid label border: dotted'],
    ];
    for (const [header, value, text] of invalid) {
      it(`${header}: ${value} -> 400`, async () => {
        expectPlain(await pdf({ [header]: value }), 400, text);
        expect(render.calls).to.have.length(0);
      });
    }

    it('accepts every valid value, in any case, and renders the same request', async () => {
      const valid: Record<string, string[]> = {
        'X-Page-Size': ['Letter', 'legal', 'A4', 'a5', 'A6'],
        'X-Page-Orientation': ['portrait', 'Landscape'],
        'X-Page-Layout': ['1x1', '2x1'],
        'X-Page-Align': ['left', 'right', 'center', 'JUSTIFY'],
        'X-Page-Vertical-Align': ['top', 'bottom', 'center', 'justify'],
        'X-Label-Border': ['dashed', 'solid', 'None'],
      };
      for (const [header, values] of Object.entries(valid)) {
        for (const value of values) {
          expect((await pdf({ [header]: value }, '3x4')).status, `${header}: ${value}`).to.equal(200);
        }
      }
      // Each request reads the clock (`now`, for ^FC) when it comes: the rest is the same.
      const asked = (req: object): string => JSON.stringify({ ...req, now: undefined });
      const first = asked(render.calls[0]!.req);
      for (const call of render.calls) expect(asked(call.req)).to.equal(first);
    });

    const noRoom = (n: number) =>
      `ERROR: Not enough room to fit ${n} label${n === 1 ? '' : 's'} vertically; ` +
      'please adjust page layout, page size, page orientation, label size, or label rotation.';

    it('refuses a label taller than the page', async () => {
      expectPlain(await pdf({ 'X-Page-Size': 'Letter' }, '4x12'), 400, noRoom(1));
      expectPlain(await pdf({ 'X-Page-Size': 'A6' }, '4x6'), 400, noRoom(1));
      expect((await pdf({ 'X-Page-Size': 'Letter' }, '4x11')).status).to.equal(200);
    });
    it('uses the page width as height in landscape', async () => {
      expectPlain(await pdf({ 'X-Page-Size': 'Letter', 'X-Page-Orientation': 'landscape' }, '4x9'), 400, noRoom(1));
      expect((await pdf({ 'X-Page-Size': 'Letter', 'X-Page-Orientation': 'portrait' }, '4x9')).status).to.equal(200);
    });
    it('counts the rows of a layout', async () => {
      expectPlain(await pdf({ 'X-Page-Size': 'Letter', 'X-Page-Layout': '1x2' }, '4x6'), 400, noRoom(2));
      expect((await pdf({ 'X-Page-Size': 'Legal', 'X-Page-Layout': '1x2' }, '4x6')).status).to.equal(200);
    });
    it('turns the label with X-Rotation 90', async () => {
      expectPlain(await pdf({ 'X-Page-Size': 'A6', 'X-Rotation': '90' }, '6x4'), 400, noRoom(1));
      expect((await pdf({ 'X-Page-Size': 'A6', 'X-Rotation': '90' }, '4x6')).status).to.equal(200);
    });
    it('ignores the page headers for PNG output', async () => {
      const res = await post(labelsPath('8', '4x6', '0')).set({ 'X-Page-Size': 'A3', 'X-Label-Border': 'dotted' });
      expect(res.status).to.equal(200);
    });
  });

  describe('X-Request-Id', () => {
    it('echoes a sane incoming id', async () => {
      const res = await post(labelsPath('8', '4x6', '0')).set('X-Request-Id', 'abc-123.x:y_z');
      expect(res.headers['x-request-id']).to.equal('abc-123.x:y_z');
    });
    it('replaces a missing or odd one with a fresh UUID, on errors too', async () => {
      const a = await post(labelsPath('99', '4x6', '0')).set('X-Request-Id', 'has spaces<script>');
      const b = await request(app).get('/compatibility/legacy/v1/nope');
      for (const res of [a, b]) expect(res.headers['x-request-id']).to.match(/^[0-9a-f-]{36}$/);
      expect(a.headers['x-request-id']).to.not.equal(b.headers['x-request-id']);
    });
  });
});
