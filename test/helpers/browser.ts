// The browser tests' shared parts: a headless Chromium (Debian's `chromium`, driven by playwright-core), a site on
// loopback serving the legacy API and the preview router as a host app mounts them, and the waits they share.

import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { chromium, type Browser, type Page } from 'playwright-core';
import {
  createLegacyRouter,
  createMemoryStores,
  createPreviewRouter,
  fieldBoxes,
  LEGACY_MOUNT_PATH,
  type LegacyRouterOptions,
  type PreviewRouterOptions,
  type ShadowOutcome,
} from '../../index.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const BROWSER_KEY = 'k_browser_preview';

/** Chromium, or undefined (the caller skips) when the machine has none. */
export async function launchChromium(): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM)) {
    console.log(`      (skipped: no Chromium at ${CHROMIUM}; apt-get install chromium, or set CHROMIUM_PATH)`);
    return undefined;
  }
  return chromium.launch({
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
}

export interface Site {
  url: string;
  server: Server;
  outcomes: ShadowOutcome[];
}

/** The legacy router at its mount path and the preview router at the root, as a host app mounts them. */
export async function startSite(
  router: Partial<LegacyRouterOptions> = {},
  shadowDir?: string,
  preview: Partial<PreviewRouterOptions> = {},
): Promise<Site> {
  const stores = createMemoryStores();
  await stores.keyStore.add({ key: BROWSER_KEY, scope: 'all' });
  const outcomes: ShadowOutcome[] = [];
  const app = express();
  const legacy = createLegacyRouter({
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
  });
  app.use(LEGACY_MOUNT_PATH, legacy);
  app.use(
    createPreviewRouter({
      keyStore: stores.keyStore,
      layout: fieldBoxes,
      ...(shadowDir !== undefined && { shadowDir }),
      ...preview,
    }),
  );
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  server.once('close', () => void legacy.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, outcomes };
}

export function stopSite(site: Site | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!site) return resolve();
    site.server.closeAllConnections();
    site.server.close(() => resolve());
  });
}

/** Waits for the picture of exactly the editor's text `zpl`: `ready` is set only by the render of the current text. */
export async function labelShown(page: Page, zpl: string): Promise<void> {
  await page.waitForFunction((text) => {
    const editor = document.querySelector<HTMLTextAreaElement>('[data-testid=zpl-editor]')!;
    const image = document.querySelector<HTMLImageElement>('[data-testid=label-image]')!;
    return editor.value === text && image.dataset.state === 'ready' && image.complete && image.naturalWidth > 0;
  }, zpl);
}

/** Types the ZPL as a person would, then waits for the picture of exactly this text. */
export async function typeLabel(page: Page, zpl: string): Promise<void> {
  await page.getByTestId('zpl-editor').fill(zpl);
  await labelShown(page, zpl);
}

/** Collects what the page's Content-Security-Policy refused (Chromium says so on the console). */
export function cspRefusals(page: Page): string[] {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  return refused;
}
