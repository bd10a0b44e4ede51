// Reads what shadow mode stored (see upstream/shadow-store.ts) for the report page: newest cases first.

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readSummary, type ShadowSummary, type StoredShadowCase } from '../upstream/shadow-store.js';

export interface ShadowReport {
  summary: ShadowSummary;
  /** Newest first, at most MAX_CASES. */
  cases: (Omit<StoredShadowCase, 'files'> & { images: { local: string; upstream: string } })[];
}

export const MAX_CASES = 200;
/** Stored image names: `<time>-<request id>.local.png` / `.upstream.png`, nothing else (no paths). */
export const SHADOW_IMAGE_NAME = /^[0-9]+-[A-Za-z0-9_-]+\.(local|upstream)\.png$/;
const CASE_FILE = /^[0-9]+-[A-Za-z0-9_-]+\.json$/;

export async function readShadowReport(dir: string): Promise<ShadowReport> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const caseFiles = names.filter((name) => CASE_FILE.test(name)).sort(byTimeDescending).slice(0, MAX_CASES);
  const cases = await Promise.all(caseFiles.map(async (name) => {
    const { files: _files, ...record } = JSON.parse(await readFile(join(dir, name), 'utf8')) as StoredShadowCase;
    return { ...record, images: { local: `${record.id}.local.png`, upstream: `${record.id}.upstream.png` } };
  }));
  return { summary: await readSummary(dir), cases };
}

export async function readShadowCase(dir: string, name: string): Promise<Buffer | undefined> {
  if (!SHADOW_IMAGE_NAME.test(name)) return undefined;
  return readFile(join(dir, name)).catch(() => undefined);
}

/** Stems start with the time in milliseconds. */
function byTimeDescending(a: string, b: string): number {
  return Number(b.split('-')[0]) - Number(a.split('-')[0]) || (a < b ? 1 : -1);
}
