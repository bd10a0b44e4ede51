// Reads what shadow mode stored (see stores/shadow-store.ts) for the report page: one owner's newest cases first.

import type { ShadowCaseStore, ShadowSummary, StoredShadowCase } from '../stores/shadow-store.js';

export interface ShadowReport {
  summary: ShadowSummary;
  /** Newest first, at most MAX_CASES. */
  cases: (Omit<StoredShadowCase, 'files' | 'owner'> & { images: { local: string; upstream: string } })[];
}

export const MAX_CASES = 200;
export { SHADOW_IMAGE_NAME } from '../stores/shadow-store.js';

/** `owner`'s report; `unreadable` gets each stored case that could not be read (it is left out). */
export async function readShadowReport(
  store: ShadowCaseStore,
  owner: string,
  unreadable: (id: string, reason: string) => void,
): Promise<ShadowReport> {
  const found = await store.cases(owner, MAX_CASES);
  for (const { id, reason } of found.unreadable) unreadable(id, reason);
  return {
    summary: found.summary,
    cases: found.cases.map(({ files: _files, owner: _owner, ...record }) => ({
      ...record,
      images: { local: `${record.id}.local.png`, upstream: `${record.id}.upstream.png` },
    })),
  };
}
