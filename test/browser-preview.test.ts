// The preview page and the shadow report in a real headless Chromium (Debian's `chromium`, driven by
// playwright-core), against real servers on loopback: the legacy API, the preview router, a fake legacy service.

import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { chromium, type Browser, type Page } from 'playwright-core';
import {
  createLegacyRouter,
  createMemoryStores,
  createPreviewRouter,
  LEGACY_MOUNT_PATH,
  fieldBoxes,
  type LegacyRouterOptions,
  type ShadowOutcome,
} from '../index.js';
import { greyPng } from './helpers/upstream-png.js';
import { startFakeUpstream, type FakeUpstream } from './helpers/upstream-fake.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const KEY = 'k_browser_preview';
const SCREENSHOT = new URL('../../docs/preview.png', import.meta.url);

interface Site {
  url: string;
  server: Server;
  outcomes: ShadowOutcome[];
}

async function startSite(router: Partial<LegacyRouterOptions> = {}, shadowDir?: string): Promise<Site> {
  const stores = createMemoryStores();
  await stores.keyStore.add({ key: KEY, scope: 'all' });
  const outcomes: ShadowOutcome[] = [];
  const app = express();
  app.use(
    LEGACY_MOUNT_PATH,
    createLegacyRouter({
      ...stores,
      ...router,
      ...(router.shadow && {
        shadow: {
          ...router.shadow,
          onSettled: (outcome) => {
            outcomes.push(outcome);
          },
        },
      }),
    }),
  );
  app.use(
    createPreviewRouter({
      keyStore: stores.keyStore,
      layout: fieldBoxes,
      ...(shadowDir !== undefined && { shadowDir }),
    }),
  );
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, outcomes };
}

function stopSite(site: Site | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!site) return resolve();
    site.server.closeAllConnections();
    site.server.close(() => resolve());
  });
}

/** Types the key and the ZPL as a person would, then waits for the picture of exactly this text. */
async function typeLabel(page: Page, zpl: string): Promise<void> {
  await page.getByTestId('zpl-editor').fill(zpl);
  // `ready` is set only by the render of the editor's current text; every edit resets it.
  await page.waitForFunction((text) => {
    const editor = document.querySelector<HTMLTextAreaElement>('[data-testid=zpl-editor]')!;
    const image = document.querySelector<HTMLImageElement>('[data-testid=label-image]')!;
    return editor.value === text && image.dataset.state === 'ready' && image.complete && image.naturalWidth > 0;
  }, zpl);
}

describe('preview page and shadow report in Chromium', function () {
  this.timeout(60_000);
  let browser: Browser;
  let page: Page;
  let site: Site | undefined;

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(`      (skipped: no Chromium at ${CHROMIUM}; apt-get install chromium, or set CHROMIUM_PATH)`);
      this.skip();
    }
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // Fresh profile per launch (playwright's default); no sandbox as root; nothing fetched from outside.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });
  after(async () => {
    await browser?.close();
  });

  beforeEach(async () => {
    page = await (
      await browser.newContext({ acceptDownloads: true, viewport: { width: 1400, height: 1000 } })
    ).newPage();
  });
  afterEach(async () => {
    await page?.context().close();
    await stopSite(site);
    site = undefined;
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

    it('downloads every label as one PDF', async () => {
      await typeLabel(page, '^XA^FO50,50^GB100,100,10^FS^XZ^XA^FO80,80^GB100,100,10^FS^XZ');
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-pdf').click()]);
      expect(download.suggestedFilename()).to.equal('labels.pdf');
      const pdf = await readFile((await download.path())!);
      expect(pdf.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
      expect((pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length).to.equal(2);
    });

    it('takes the screenshot docs/preview.md shows', async () => {
      await page.getByTestId('zpl-editor').evaluate((e: HTMLTextAreaElement) => e.dispatchEvent(new Event('input')));
      const zpl = await page.getByTestId('zpl-editor').inputValue();
      await typeLabel(page, zpl);
      // Point at the text field of the sample label, as a person trying the page would.
      await page
        .locator(`[data-testid=element-box][data-start="${zpl.indexOf('^FO70,80')}"]`)
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
