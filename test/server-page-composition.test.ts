// PAGE_COMPOSITION: the standalone server composes PDF sheets from X-Page-* when it is `apply` (router option
// pageComposition), over real HTTP against the started server; unset or `validate`, the headers are only checked.
// A bad value stops the server naming the variable.

import { expect } from 'chai';
import { readServerConfig } from '../server/config.js';
import { hasPoppler, pdfInfo } from './helpers/poppler.js';
import { startServer, stopServer, type StartedServer } from './helpers/server-process.js';

/** A 4x6 label at 8 dpmm inked edge to edge, four times. */
const FOUR_LABELS = '^XA^FO0,0^GB812,1218,1218^FS^XZ'.repeat(4);
const SHEET = { 'X-Page-Size': 'Letter', 'X-Page-Orientation': 'landscape', 'X-Page-Layout': '2x1' };

describe('PAGE_COMPOSITION for the standalone server', function () {
  this.timeout(60_000);

  it('reads apply and validate in any case; anything else is a start-up error naming the variable', () => {
    expect(readServerConfig({ PAGE_COMPOSITION: ' Apply ' }).pageComposition).to.equal('apply');
    expect(readServerConfig({ PAGE_COMPOSITION: 'validate' }).pageComposition).to.equal('validate');
    expect(readServerConfig({})).to.not.have.property('pageComposition');
    expect(readServerConfig({ PAGE_COMPOSITION: '' })).to.not.have.property('pageComposition');
    expect(() => readServerConfig({ PAGE_COMPOSITION: 'sheets' })).to.throw(
      'PAGE_COMPOSITION must be validate or apply, not sheets',
    );
  });

  it('a bad value stops the server with one line naming it', async () => {
    let failed: unknown;
    await startServer({ PAGE_COMPOSITION: 'sheets' }).catch((err: unknown) => {
      failed = err;
    });
    expect(String(failed)).to.match(/ERROR: PAGE_COMPOSITION must be validate or apply, not sheets/);
  });

  describe('over HTTP', () => {
    before(function () {
      if (!hasPoppler()) this.skip();
    });

    /** The all-labels PDF of four labels with the sheet headers, from a server started with `env`. */
    async function sheetPdf(env: Record<string, string>): Promise<Record<string, string>> {
      let server: StartedServer | undefined;
      try {
        server = await startServer(env);
        const res = await fetch(`${server.base}/compatibility/legacy/v1/printers/8dpmm/labels/4x6`, {
          method: 'POST',
          headers: { 'X-API-Key': server.devKey!, Accept: 'application/pdf', ...SHEET },
          body: FOUR_LABELS,
        });
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.equal('application/pdf');
        return pdfInfo(new Uint8Array(await res.arrayBuffer()));
      } finally {
        if (server) await stopServer(server.child);
      }
    }

    it('apply: two labels a landscape Letter sheet; unset and validate: one label-sized page each', async () => {
      const applied = await sheetPdf({ PAGE_COMPOSITION: 'apply' });
      expect(applied.Pages).to.equal('2');
      expect(applied['Page size']).to.match(/^792 x 612 pts/);
      for (const env of [{}, { PAGE_COMPOSITION: 'validate' }] as Record<string, string>[]) {
        const validated = await sheetPdf(env);
        expect(validated.Pages, JSON.stringify(env)).to.equal('4');
        expect(validated['Page size'], JSON.stringify(env)).to.match(/^288 x 432 pts/);
      }
    });
  });
});
