// The preview page as the legacy viewer: its permalinks (read and written), sizes in inches, mm or cm, an image
// added through POST /graphics and a font through POST /fonts, and what it says before a key is typed. In a real
// headless Chromium against the real routers on loopback.

import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page, Request } from 'playwright-core';
import { LEGACY_MOUNT_PATH } from '../index.js';
import { PAGE_SECURITY_HEADERS } from '../middleware/preview/router.js';
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
import { decodePng, type DecodedPng, px } from './helpers/png.js';
import { greyPng } from './helpers/upstream-png.js';

const require = createRequire(import.meta.url);
const MONO = readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf'));
const TWO_LABELS = '^XA^FO20,20^GB100,60,60^FS^XZ\n^XA^FO40,40^A0N,40,40^FDSecond label^FS^XZ';

interface Render {
  request: Request;
  /** The PNG as the page received it. */
  body: Promise<Buffer>;
}

/** The render requests the page makes (not the layouts), each with the answer passed on to the page. */
async function renderRequests(page: Page): Promise<Render[]> {
  const seen: Render[] = [];
  await page.route(`**${LEGACY_MOUNT_PATH}/printers/**`, async (route) => {
    const answer = route.fetch();
    // In the order asked: the last one asked is the one a picture of the current text comes from.
    seen.push({ request: route.request(), body: answer.then((res) => res.body()) });
    await route.fulfill({ response: await answer });
  });
  return seen;
}

/** The PNG the page shows once it shows the editor's text `zpl`: the answer to the last render it asked for. */
async function shownPng(page: Page, renders: Render[], zpl: string): Promise<DecodedPng> {
  await labelShown(page, zpl);
  return decodePng(await renders.at(-1)!.body);
}

async function postLabel(site: Site, zpl: string): Promise<DecodedPng> {
  const res = await fetch(`${site.url}${LEGACY_MOUNT_PATH}/printers/8dpmm/labels/4x6/0`, {
    method: 'POST',
    headers: { 'X-API-Key': KEY },
    body: zpl,
  });
  expect(res.status).to.equal(200);
  return decodePng(new Uint8Array(await res.arrayBuffer()));
}

async function caretAt(page: Page, at: number): Promise<void> {
  await page.getByTestId('zpl-editor').evaluate((e: HTMLTextAreaElement, to: number) => {
    e.focus();
    e.setSelectionRange(to, to);
  }, at);
}

const editorText = (page: Page): Promise<string> => page.getByTestId('zpl-editor').inputValue();

describe('preview page as the legacy viewer, in Chromium', function () {
  this.timeout(60_000);
  let browser: Browser;
  let page: Page;
  let site: Site | undefined;
  let refused: string[];
  let requests: Render[];

  before(async function () {
    const launched = await launchChromium();
    if (!launched) this.skip();
    browser = launched;
  });
  after(async () => {
    await browser?.close();
  });
  beforeEach(async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    page = await context.newPage();
    refused = cspRefusals(page);
    requests = await renderRequests(page);
  });
  afterEach(async () => {
    await page?.context().close();
    await stopSite(site);
    site = undefined;
    expect(refused).to.deep.equal([]);
  });

  describe('permalinks', () => {
    beforeEach(async () => {
      site = await startSite();
    });

    it("opens a legacy viewer link with its settings, asks the API for that label, and keeps the link's form", async () => {
      // As a PHP or Python client writes it: `+` for a space.
      const query = new URLSearchParams({
        density: '12',
        quality: 'bitonal',
        width: '50',
        height: '30',
        units: 'mm',
        index: '1',
        rotation: '90',
        zpl: TWO_LABELS,
      }).toString();
      expect(query).to.contain('Second+label');
      await page.goto(`${site!.url}/?${query}`);
      await page.getByTestId('api-key').fill(KEY);
      await labelShown(page, TWO_LABELS);

      expect(await editorText(page)).to.equal(TWO_LABELS);
      expect(await page.getByTestId('dpmm').inputValue()).to.equal('12');
      expect(await page.getByTestId('quality').inputValue()).to.equal('bitonal');
      expect(await page.getByTestId('units').inputValue()).to.equal('mm');
      expect(await page.getByTestId('width').inputValue()).to.equal('50');
      expect(await page.getByTestId('height').inputValue()).to.equal('30');
      expect(await page.getByTestId('rotation').inputValue()).to.equal('90');
      expect(await page.getByTestId('label-index').inputValue()).to.equal('1');

      // 12 dpmm is 304 dpi (floor(12 x 25.4)); 50 mm and 30 mm are 598 and 359 dots; turned 90 degrees.
      const last = requests.at(-1)!.request;
      const path = /\/printers\/12dpmm\/labels\/([\d.]+)x([\d.]+)\/1$/.exec(new URL(last.url()).pathname);
      expect(path, last.url()).to.not.equal(null);
      expect(Number(path![1]) * 25.4).to.be.closeTo(50, 1e-12);
      expect(Number(path![2]) * 25.4).to.be.closeTo(30, 1e-12);
      const headers = await last.allHeaders();
      expect(headers['x-rotation']).to.equal('90');
      expect(headers['x-quality']).to.equal('bitonal');
      const size = await page
        .getByTestId('label-image')
        .evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
      expect(size).to.deep.equal([359, 598]);
      expect(await page.getByTestId('dots').textContent()).to.equal('598 × 359 dots');

      // The address is the same link, in the legacy viewer's order, every value percent-encoded; never the key.
      const address = new URL(page.url());
      expect(address.search).to.equal(
        `?density=12&quality=bitonal&width=50&height=30&units=mm&index=1&rotation=90&zpl=${encodeURIComponent(TWO_LABELS)}`,
      );
      expect(page.url()).to.not.contain(KEY);
    });

    it('writes the address as the label is edited; the copied link opens the same label', async () => {
      await page.goto(`${site!.url}/`);
      await page.getByTestId('api-key').fill(KEY);
      const zpl = '^XA^FO30,30^GB200,80,80^FS^FO30,150^A0N,50,50^FDLinked^FS^XZ';
      await typeLabel(page, zpl);
      await page.getByTestId('dpmm').selectOption('6');
      await page.getByTestId('quality').selectOption('bitonal');
      await page.getByTestId('rotation').selectOption('180');
      await page.getByTestId('width').fill('3');
      const first = await shownPng(page, requests, zpl);
      expect([first.width, first.height]).to.deep.equal([456, 912]); // 6 dpmm: 152 dpi

      const query = new URL(page.url()).search;
      expect(query).to.equal(
        `?density=6&quality=bitonal&width=3&height=6&units=inches&index=0&rotation=180&zpl=${encodeURIComponent(zpl)}`,
      );
      await page.getByTestId('copy-link').click();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).to.equal(page.url());

      // Another tab (the key typed again: it lives in one tab's session storage), the same label.
      const other = await page.context().newPage();
      const otherRefused = cspRefusals(other);
      const otherRequests = await renderRequests(other);
      await other.goto(copied);
      await other.getByTestId('api-key').fill(KEY);
      const second = await shownPng(other, otherRequests, zpl);
      expect([second.width, second.height]).to.deep.equal([first.width, first.height]);
      expect(Buffer.from(second.gray).equals(Buffer.from(first.gray))).to.equal(true);
      expect(otherRefused).to.deep.equal([]);
    });

    it('keeps a label too long for a link out of the address, and says so', async () => {
      await page.goto(`${site!.url}/`);
      await page.getByTestId('api-key').fill(KEY);
      const long = `^XA${'^FO10,10^GB20,20,2^FS'.repeat(800)}^XZ`;
      await typeLabel(page, long);
      await page.getByTestId('link-note').filter({ hasText: 'too long to open' }).waitFor();
      const address = new URL(page.url());
      expect(address.searchParams.get('zpl')).to.equal(null);
      expect(address.searchParams.get('density')).to.equal('8');
    });
  });

  describe('label size units', () => {
    beforeEach(async () => {
      site = await startSite();
      await page.goto(`${site.url}/`);
      await page.getByTestId('api-key').fill(KEY);
    });

    it('shows the size in mm and cm, sends a typed mm value as exact inches and keeps it when units change', async () => {
      const zpl = '^XA^FO10,10^GB50,50,50^FS^XZ';
      await typeLabel(page, zpl);
      await page.getByTestId('units').selectOption('mm');
      expect(await page.getByTestId('width').inputValue()).to.equal('101.6');
      expect(await page.getByTestId('height').inputValue()).to.equal('152.4');
      expect(await page.getByTestId('width').getAttribute('max')).to.equal('381');
      expect(await page.getByTestId('width').getAttribute('min')).to.equal('0.0254');
      await labelShown(page, zpl);
      expect(new URL(requests.at(-1)!.request.url()).pathname).to.match(/\/labels\/4x6\/0$/);

      // 100 mm is 100 / 25.4 in: 799 dots at 203 dpi (812 for 4 in).
      await page.getByTestId('width').fill('100');
      const png = await shownPng(page, requests, zpl);
      expect([png.width, png.height]).to.deep.equal([799, 1218]);
      const sent = /\/labels\/([\d.]+)x6\/0$/.exec(new URL(requests.at(-1)!.request.url()).pathname);
      expect(Number(sent![1])).to.be.closeTo(100 / 25.4, 1e-14);
      expect(new URL(page.url()).search).to.match(/^\?density=8&quality=grayscale&width=100&height=152\.4&units=mm&/);

      await page.getByTestId('units').selectOption('inches');
      expect(await page.getByTestId('width').inputValue()).to.equal('3.937');
      await labelShown(page, zpl);
      expect(Number(/\/labels\/([\d.]+)x6\/0$/.exec(requests.at(-1)!.request.url())![1])).to.be.closeTo(
        100 / 25.4,
        1e-14,
      );
      await page.getByTestId('units').selectOption('cm');
      expect(await page.getByTestId('width').inputValue()).to.equal('10');
      expect(await page.getByTestId('height').inputValue()).to.equal('15.24');
      await page.getByTestId('units').selectOption('mm');
      expect(await page.getByTestId('width').inputValue()).to.equal('100');
      expect((await shownPng(page, requests, zpl)).width).to.equal(799);
    });

    it("states the API's bounds in the unit shown, without asking the API", async () => {
      await typeLabel(page, '^XA^FO10,10^GB50,50,50^FS^XZ');
      await page.getByTestId('units').selectOption('cm');
      await page.getByTestId('height').fill('40');
      await page
        .getByTestId('error')
        .filter({ hasText: "The label's height must be a number from 0.00254 to 38.1 cm." })
        .waitFor();
      const before = requests.length;
      await page.getByTestId('height').fill('38.1');
      await labelShown(page, '^XA^FO10,10^GB50,50,50^FS^XZ');
      expect(requests.length).to.equal(before + 1);
      expect(await page.getByTestId('error').isHidden()).to.equal(true);
    });
  });

  describe('adding an image and a font', () => {
    beforeEach(async () => {
      site = await startSite({ graphicsEndpoint: true, fontsEndpoint: true });
      await page.goto(`${site.url}/`);
      await page.getByTestId('api-key').fill(KEY);
    });

    /** POST /graphics' own answer for the same image, asked for directly. */
    async function graphicField(image: Buffer): Promise<string> {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'logo.png');
      const res = await fetch(`${site!.url}${LEGACY_MOUNT_PATH}/graphics`, {
        method: 'POST',
        headers: { 'X-API-Key': KEY },
        body: form,
      });
      expect(res.status).to.equal(200);
      return /^\^XA(.*)\^XZ$/s.exec(await res.text())![1]!;
    }

    it('puts the ^GF field POST /graphics answers at the caret, and the label draws it', async () => {
      const before = '^XA\n^FO300,300^GB50,50,50^FS\n';
      const after = '^XZ';
      await typeLabel(page, before + after);
      await caretAt(page, before.length);
      // A 40x24 image, its left half black.
      const logo = greyPng(40, 24, (x) => x < 20);
      const field = await graphicField(logo);
      expect(field).to.match(/^\^FO0,0\^GFA,\d+,\d+,\d+,[0-9A-F]+\^FS$/);
      await page.getByTestId('add-image').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
      await page.getByTestId('add-status').filter({ hasText: 'added at the caret' }).waitFor();
      const zpl = `${before}${field}\n${after}`;
      expect(await editorText(page)).to.equal(zpl);

      const png = await shownPng(page, requests, zpl);
      expect(px(png, 2, 2)).to.equal(0);
      expect(px(png, 19, 23)).to.equal(0);
      expect(px(png, 21, 2)).to.equal(255);
      expect(px(png, 2, 25)).to.equal(255);
      expect(px(png, 320, 320)).to.equal(0); // the box it had
    });

    it('puts the field before the ^XZ of the label shown when the caret is outside every label', async () => {
      await typeLabel(page, TWO_LABELS);
      await page.getByTestId('label-index').selectOption({ value: '1' });
      await labelShown(page, TWO_LABELS);
      await caretAt(page, 0);
      const logo = greyPng(16, 16, () => true);
      const field = await graphicField(logo);
      await page.getByTestId('add-image').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
      await page.getByTestId('add-status').filter({ hasText: 'before the ^XZ of the label shown' }).waitFor();
      const end = TWO_LABELS.lastIndexOf('^XZ');
      expect(await editorText(page)).to.equal(TWO_LABELS.slice(0, end) + field + TWO_LABELS.slice(end));
    });

    it('moves the field out of a field the caret is in', async () => {
      const zpl = '^XA^FO40,40^A0N,40,40^FDHello^FS^XZ';
      await typeLabel(page, zpl);
      await caretAt(page, zpl.indexOf('Hel') + 2);
      const logo = greyPng(8, 8, () => true);
      const field = await graphicField(logo);
      await page.getByTestId('add-image').setInputFiles({ name: 'dot.png', mimeType: 'image/png', buffer: logo });
      await page.getByTestId('add-status').filter({ hasText: 'just after the command or field' }).waitFor();
      const end = zpl.indexOf('^XZ');
      expect(await editorText(page)).to.equal(zpl.slice(0, end) + field + zpl.slice(end));
    });

    it('puts the ~DU POST /fonts answers before the label; the label draws as with the whole font sent by ~DU', async () => {
      const label = '^XA^FO30,30^AZN,80,80^FDHello^FS^XZ';
      await typeLabel(page, label);
      await caretAt(page, label.indexOf('^FD'));
      await page.getByTestId('font-path').fill('r:mono.ttf');
      await page.getByTestId('font-name').selectOption('Z');
      await page.getByTestId('font-chars').fill('Helo');
      await page.getByTestId('add-font').setInputFiles({ name: 'mono.ttf', mimeType: 'font/ttf', buffer: MONO });
      await page.getByTestId('add-status').filter({ hasText: 'stored as R:MONO.TTF, named Z' }).waitFor();
      const text = await editorText(page);
      const stored = /^\^XA~DUR:MONO\.TTF,(\d+),([0-9A-F]+)\^CWZ,R:MONO\.TTF\^XZ\n/.exec(text);
      expect(stored, text.slice(0, 60)).to.not.equal(null);
      expect(text.slice(stored![0].length)).to.equal(label);
      expect(Number(stored![1])).to.be.lessThan(MONO.length); // the subset asked for

      const shown = await shownPng(page, requests, text);
      const wholeFont = `~DUR:MONO.TTF,${MONO.length},${MONO.toString('hex').toUpperCase()}^CWZ,R:MONO.TTF`;
      const expected = await postLabel(site!, label.replace('^XA', `^XA${wholeFont}`));
      expect(Buffer.from(shown.gray).equals(Buffer.from(expected.gray))).to.equal(true);
      const withoutFont = await postLabel(site!, label);
      expect(Buffer.from(shown.gray).equals(Buffer.from(withoutFont.gray))).to.equal(false);
    });
  });

  describe('before a key, and with the conversions off', () => {
    beforeEach(async () => {
      site = await startSite();
    });

    it('says how to get a key instead of an empty label, and asks the API nothing', async () => {
      await page.goto(`${site!.url}/`);
      const help = page.getByTestId('key-help');
      await help.waitFor();
      const text = (await help.textContent())!.replace(/\s+/g, ' ');
      expect(text).to.contain('dev API key: ...');
      expect(text).to.contain('npx zpl-keys --file keys.json create --scope all');
      expect(await help.locator('a[href$="docs/keys-and-limits.md"]').count()).to.equal(1);
      expect(await page.getByTestId('label-image').isVisible()).to.equal(false);
      expect(await page.getByTestId('label-count').isVisible()).to.equal(false);
      expect(requests).to.have.length(0);

      // A key the API does not know: the API's answer, and the same help.
      await page.getByTestId('api-key').fill('k_not_a_key');
      await page.getByTestId('error').filter({ hasText: 'invalid_key' }).waitFor();
      expect(await help.isVisible()).to.equal(true);

      await page.getByTestId('api-key').fill(KEY);
      await labelShown(page, await editorText(page));
      expect(await help.isVisible()).to.equal(false);
      expect(await page.getByTestId('label-count').textContent()).to.equal('1');
    });

    it('names the switch that turns POST /graphics and POST /fonts on when they answer 404', async () => {
      await page.goto(`${site!.url}/`);
      await page.getByTestId('api-key').fill(KEY);
      const zpl = await editorText(page);
      await labelShown(page, zpl);
      const logo = greyPng(8, 8, () => true);
      await page.getByTestId('add-image').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
      await page.getByTestId('add-status').filter({ hasText: 'POST /graphics is off' }).waitFor();
      expect(await page.getByTestId('add-status').textContent()).to.contain('GRAPHICS_ENDPOINT=1');
      expect(await page.getByTestId('add-image-button').textContent()).to.contain('off (GRAPHICS_ENDPOINT=1)');
      expect(await page.getByTestId('add-image').isDisabled()).to.equal(true);

      await page.getByTestId('add-font').setInputFiles({ name: 'mono.ttf', mimeType: 'font/ttf', buffer: MONO });
      await page.getByTestId('add-status').filter({ hasText: 'POST /fonts is off' }).waitFor();
      expect(await page.getByTestId('add-status').textContent()).to.contain('FONTS_ENDPOINT=1');
      expect(await page.getByTestId('add-font-button').textContent()).to.contain('off (FONTS_ENDPOINT=1)');
      expect(await editorText(page)).to.equal(zpl);
    });

    it('serves the page with its security headers and the values the server states', async () => {
      const res = await fetch(`${site!.url}/`);
      for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) expect(res.headers.get(name)).to.equal(value);
      const html = await res.text();
      expect(html).to.not.contain('{{');
      expect(html).to.contain('data-label-inches="0.001 15"');
      expect(html).to.contain('data-font-names="IKMOWXYZ"');
      await page.goto(`${site!.url}/`);
      const names = await page.getByTestId('font-name').locator('option').allTextContents();
      expect(names).to.deep.equal(['none', 'I', 'K', 'M', 'O', 'W', 'X', 'Y', 'Z']);
    });
  });
});
