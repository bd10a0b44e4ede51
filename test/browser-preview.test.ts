// The preview page and the shadow report in a real headless Chromium (Debian's `chromium`, driven by
// playwright-core), against real servers on loopback: the legacy API, the preview router, a fake legacy service.

import { expect } from 'chai';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { LEGACY_MOUNT_PATH } from '../index.js';
import {
  BROWSER_KEY as KEY,
  cspRefusals,
  labelShown,
  launchChromium,
  type Site,
  startSite,
  stopSite,
  typeLabel,
} from './helpers/browser.js';
import { decodePng, px } from './helpers/png.js';
import { greyPng } from './helpers/upstream-png.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/upstream-fake.js';

const SCREENSHOT = new URL('../../docs/preview.png', import.meta.url);

describe('preview page and shadow report in Chromium', function () {
  this.timeout(60_000);
  let browser: Browser;
  let page: Page;
  let site: Site | undefined;
  let refused: string[];

  before(async function () {
    const launched = await launchChromium();
    if (!launched) this.skip();
    browser = launched;
  });
  after(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    page = await (
      await browser.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 1000 } })
    ).newPage();
    refused = cspRefusals(page);
  });
  afterEach(async () => {
    await page?.context().close();
    await stopSite(site);
    site = undefined;
    // The pages' Content-Security-Policy refused nothing they do.
    expect(refused).to.deep.equal([]);
  });

  describe('the preview page', () => {
    beforeEach(async () => {
      site = await startSite();
      await page.goto(`${site.url}/`);
      await page.getByTestId('api-key').fill(KEY);
    });

    it('renders typed ZPL through the API at the default 8 dpmm, 4x6 in: an 812x1218 image', async () => {
      await typeLabel(page, '^XA^FO50,50^GB200,100,100^FS^FO50,200^A0N,40,40^FDHello^FS^XZ');
      const size = await page
        .getByTestId('label-image')
        .evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
      expect(size).to.deep.equal([812, 1218]);
      expect(await page.getByTestId('label-count').textContent()).to.equal('1');
      expect(await page.evaluate(() => sessionStorage.length)).to.equal(1);
      expect(await page.evaluate(() => localStorage.length)).to.equal(0);
    });

    it('counts the labels of a two-label document and offers both', async () => {
      await typeLabel(page, '^XA^FO50,50^GB100,100,10^FS^XZ^XA^FO80,80^GB100,100,10^FS^XZ');
      expect(await page.getByTestId('label-count').textContent()).to.equal('2');
      expect(await page.getByTestId('label-index').locator('option').count()).to.equal(2);
    });

    it('lists the linter warnings for ^GB0,0,0 and selects the offending bytes on click', async () => {
      const zpl = '^XA^FO50,50^GB0,0,0^FS^XZ';
      await typeLabel(page, zpl);
      const warnings = page.getByTestId('warnings').locator('button');
      await warnings.first().waitFor();
      expect(await warnings.count()).to.be.greaterThan(0);
      const first = (await warnings.first().textContent())!;
      expect(first).to.contain('^GB');
      const byte = Number(/byte (\d+)\)/.exec(first)![1]);
      await warnings.first().click();
      const selection = await page
        .getByTestId('zpl-editor')
        .evaluate((e: HTMLTextAreaElement) => [e.selectionStart, e.selectionEnd]);
      expect(selection[0]).to.equal(byte);
      expect(selection[1]).to.be.greaterThan(byte);
      expect(zpl.slice(selection[0], selection[1])).to.match(/^[0-9]+$/);
    });

    it('ends the warnings with how many the answer leaves out, by command', async () => {
      // 1,300 unknown commands: 20 listed, 80 more kept and 1,200 counted by the renderer.
      await typeLabel(page, `^XA${'^QQ'.repeat(1300)}^XZ`);
      const items = page.getByTestId('warnings').locator('li');
      await page.getByTestId('warnings-omitted').waitFor();
      expect(await items.count()).to.equal(21);
      expect(await items.last().textContent()).to.equal('and 1,280 more: ^QQ 1,280');
      expect(await page.locator('#warning-count').textContent()).to.equal('(1,300)');
      // A clean label clears it.
      await typeLabel(page, '^XA^FO50,50^GB100,100,10^FS^XZ');
      expect(await items.count()).to.equal(0);
    });

    it('shows an API error as the API words it', async () => {
      await page.getByTestId('dpmm').evaluate((select: HTMLSelectElement) => {
        select.add(new Option('7', '7'));
        select.value = '7';
        select.dispatchEvent(new Event('change'));
      });
      await page.getByTestId('error').filter({ hasText: 'ERROR: Unknown print density 7' }).waitFor();
    });

    it('highlights the ZPL of an element under the pointer, and outlines the element at the caret', async () => {
      const zpl = '^XA\n^FO50,50^GB200,100,100^FS\n^FO50,300^A0N,40,40^FDHello^FS\n^XZ';
      await typeLabel(page, zpl);
      const boxes = page.getByTestId('element-box');
      expect(await boxes.count()).to.be.greaterThan(1);
      const box = boxes.first();
      await box.hover();
      const mark = page.getByTestId('zpl-highlight');
      await mark.waitFor();
      expect(await mark.textContent()).to.contain('^GB200,100,100');

      // Caret inside the text field: its element, and only its, is outlined.
      const caret = zpl.indexOf('Hello') + 2;
      await page.getByTestId('zpl-editor').evaluate((e: HTMLTextAreaElement, at: number) => {
        e.focus();
        e.setSelectionRange(at, at);
        e.dispatchEvent(new KeyboardEvent('keyup'));
      }, caret);
      const active = page.locator('[data-testid=element-box].active');
      await active.first().waitFor();
      const spans = await active.evaluateAll((divs) =>
        divs.map((d) => [Number((d as HTMLElement).dataset.start), Number((d as HTMLElement).dataset.end)]),
      );
      for (const [start, end] of spans) expect(zpl.slice(start, end)).to.contain('^FDHello');
    });

    it('downloads the label shown as a PNG', async () => {
      const zpl = '^XA^FO50,50^GB100,100,10^FS^XZ^XA^FO80,80^GB100,100,10^FS^XZ';
      await typeLabel(page, zpl);
      await page.getByTestId('label-index').selectOption({ value: '1' });
      await labelShown(page, zpl);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-png').click()]);
      expect(download.suggestedFilename()).to.equal('label-2.png');
      const png = decodePng(await readFile((await download.path())!));
      expect([png.width, png.height]).to.deep.equal([812, 1218]);
      expect(px(png, 85, 85)).to.equal(0); // the second label's box
      expect(px(png, 55, 55)).to.equal(255);
    });

    it('downloads every label as one PDF', async () => {
      await typeLabel(page, '^XA^FO50,50^GB100,100,10^FS^XZ^XA^FO80,80^GB100,100,10^FS^XZ');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-pdf').click()]);
      expect(download.suggestedFilename()).to.equal('labels.pdf');
      const pdf = await readFile((await download.path())!);
      expect(pdf.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
      expect((pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length).to.equal(2);
    });
  });

  describe('the screenshot docs/preview.md shows', () => {
    beforeEach(async () => {
      site = await startSite({ graphicsEndpoint: true, fontsEndpoint: true });
    });

    it('opens a permalink in mm, adds a logo through POST /graphics and points at a field', async () => {
      const sample =
        '^XA\n^FO50,50^GB300,120,4^FS\n^FO70,80^A0N,50,50^FDHello, label^FS\n^FO70,220^BY3^BCN,100,Y,N,N^FD12345678^FS\n^XZ';
      const link = `density=8&quality=grayscale&width=100&height=60&units=mm&index=0&rotation=0&zpl=${encodeURIComponent(sample)}`;
      await page.goto(`${site!.url}/?${link}`);
      await page.getByTestId('api-key').fill(KEY);
      const editor = page.getByTestId('zpl-editor');
      // The logo goes on its own line before the ^XZ, then moves to the right of the box.
      await editor.evaluate((e: HTMLTextAreaElement, at: number) => e.setSelectionRange(at, at), sample.indexOf('^XZ'));
      const ring = (x: number, y: number): boolean => {
        const r = Math.hypot(x - 32, y - 32);
        return (r < 31 && r > 22) || (Math.abs(x - 32) < 6 && Math.abs(y - 32) < 16);
      };
      await page
        .getByTestId('add-image')
        .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: greyPng(64, 64, ring) });
      await page.getByTestId('add-status').filter({ hasText: 'added at the caret' }).waitFor();
      const added = (await editor.inputValue()).replace('^FO0,0^GFA', '^FO500,40^GFA');
      await typeLabel(page, added);
      await editor.evaluate((e: HTMLTextAreaElement) => {
        e.scrollTop = 0;
        e.dispatchEvent(new Event('scroll'));
      });
      // Point at the text field of the sample label, as a person trying the page would.
      await page
        .locator(`[data-testid=element-box][data-start="${added.indexOf('^FO70,80')}"]`)
        .first()
        .hover();
      await page.getByTestId('zpl-highlight').waitFor();
      const shot = await page.screenshot();
      expect(shot.subarray(1, 4).toString('latin1')).to.equal('PNG');
      if (process.env.UPDATE_SCREENSHOT === '1') {
        await mkdir(new URL('.', SCREENSHOT), { recursive: true });
        await writeFile(SCREENSHOT, shot);
      }
    });
  });

  describe('the shadow report', () => {
    let upstream: FakeUpstream;
    let dir: string;

    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'zpl-shadow-report-'));
      // The legacy service draws the box 12 dots further right: ink only theirs and ink only ours.
      upstream = await startFakeUpstream((_received, res) => {
        res
          .status(200)
          .set({ 'Content-Type': 'image/png', 'X-Total-Count': '1' })
          .end(greyPng(406, 203, (x, y) => x >= 32 && x < 152 && y >= 20 && y < 80));
      });
      site = await startSite(
        { mode: 'shadow', upstream: { url: upstream.url }, shadow: { sampleRate: 1, storeDir: dir } },
        dir,
      );
    });
    afterEach(async () => {
      await upstream.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('lists two stored divergences newest first, with both labels, a red/blue difference and the summary', async () => {
      for (const zpl of ['^XA^FO20,20^GB120,60,60^FS^XZ', '^XA^FO20,20^GB120,60,60^FS^FO300,150^GB20,20,20^FS^XZ']) {
        const res = await fetch(`${site!.url}${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/2x1/0`, {
          method: 'POST',
          headers: { 'X-API-Key': KEY },
          body: zpl,
        });
        expect(res.status).to.equal(200);
        await res.arrayBuffer();
        const settled = site!.outcomes.length + 1;
        while (site!.outcomes.length < settled) await new Promise((r) => setTimeout(r, 20));
      }
      expect(site!.outcomes.map((o) => o.outcome)).to.deep.equal(['divergent', 'divergent']);
      expect((await readdir(dir)).filter((f) => f.endsWith('.json') && f !== 'summary.json')).to.have.length(2);

      await page.goto(`${site!.url}/shadow`);
      await page.getByTestId('api-key').fill(KEY);
      const cases = page.getByTestId('shadow-case');
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid=shadow-case][data-state=ready]').length === 2,
      );
      const ids = await cases.evaluateAll((all) => all.map((c) => (c as HTMLElement).dataset.id!));
      const requestIds = site!.outcomes.map((o) => o.requestId.replace(/[^A-Za-z0-9_-]/g, '_'));
      expect(ids.map((id) => id.slice(id.indexOf('-') + 1))).to.deep.equal([...requestIds].reverse());
      expect(await cases.first().textContent()).to.match(/score 0\.\d{4}/);

      const colours = await cases
        .first()
        .getByTestId('diff')
        .evaluate((canvas: HTMLCanvasElement) => {
          const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
          let red = 0;
          let blue = 0;
          for (let i = 0; i < data.length; i += 4) {
            if (data[i] === 255 && data[i + 1] === 0 && data[i + 2] === 0) red++;
            if (data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 255) blue++;
          }
          return { red, blue, width: canvas.width, height: canvas.height };
        });
      expect(colours.width).to.equal(406);
      expect(colours.height).to.equal(203);
      expect(colours.red).to.be.greaterThan(0);
      expect(colours.blue).to.be.greaterThan(0);
      for (const id of ['legacy-image', 'local-image']) {
        expect(
          await cases
            .first()
            .getByTestId(id)
            .evaluate((img: HTMLImageElement) => img.naturalWidth),
        ).to.equal(406);
      }
      expect(await page.locator('#compared').textContent()).to.equal('2');
      expect(await page.locator('#diverged').textContent()).to.equal('2');
      expect(await page.locator('#matched').textContent()).to.equal('0');
    });

    it('asks for a key before showing stored labels', async () => {
      const res = await fetch(`${site!.url}/shadow/cases.json`);
      expect(res.status).to.equal(401);
      const image = await fetch(`${site!.url}/shadow/images/..%2fsummary.json`, { headers: { 'X-API-Key': KEY } });
      expect(image.status).to.equal(404);
    });
  });
});
