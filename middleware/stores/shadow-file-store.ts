// Shadow cases as files in one folder, for a single machine (one process writes it): `<stem>.json` beside
// `<stem>.local.png` and `<stem>.upstream.png`, and `summary.json` with each owner's running summary. Every file is
// written under a temporary name and renamed, so a crash or a full disk never leaves a half-written one in place.

import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, unlink, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  addToSummary,
  emptySummary,
  retention,
  SHADOW_IMAGE_NAME,
  tallyFields,
  type ShadowCases,
  type ShadowCaseStore,
  type ShadowOutcome,
  type ShadowRetention,
  type ShadowSummary,
  type StoredShadowCase,
} from './shadow-store.js';

export const SUMMARY_FILE = 'summary.json';
const CASE_FILE = /^([0-9]+)-[A-Za-z0-9_-]+\.json$/;

interface CaseEntry {
  id: string;
  time: number;
  bytes: number;
}

/** `data` to `path` through a temporary name in the same folder, so readers see the old file or the whole new one. */
async function writeAtomically(path: string, data: string | Uint8Array): Promise<void> {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, data);
    await rename(temporary, path);
  } catch (err) {
    await unlink(temporary).catch(() => undefined);
    throw err;
  }
}

/** When a case was made: its id (and so its file names) starts with the time in milliseconds. */
function timeOf(idOrName: string): number {
  return Number(idOrName.split('-')[0]);
}

/** Case file names, newest first. */
function newestFirst(names: string[]): string[] {
  return names.filter((n) => CASE_FILE.test(n)).sort((a, b) => timeOf(b) - timeOf(a) || (a < b ? 1 : -1));
}

export class FileShadowStore implements ShadowCaseStore {
  readonly #dir: string;
  readonly #limits: Required<ShadowRetention>;
  readonly #now: () => number;
  /** Each owner's cases, oldest first: read from the folder once, then kept as this process writes. */
  #index: Promise<Map<string, CaseEntry[]>> | undefined;
  #summaries: Promise<Map<string, ShadowSummary>> | undefined;
  /** Writes to the index and summary file, one at a time. */
  #chain: Promise<unknown> = Promise.resolve();

  constructor(dir: string, options: ShadowRetention & { now?: () => number } = {}) {
    this.#dir = dir;
    this.#limits = retention(options);
    this.#now = options.now ?? Date.now;
  }

  async saveCase(
    record: StoredShadowCase,
    local: Uint8Array,
    upstream: Uint8Array,
  ): Promise<{ local: string; upstream: string } | undefined> {
    const bytes = local.byteLength + upstream.byteLength;
    const keepImages = bytes <= this.#limits.maxBytes;
    const files = {
      local: join(this.#dir, `${record.id}.local.png`),
      upstream: join(this.#dir, `${record.id}.upstream.png`),
    };
    await mkdir(this.#dir, { recursive: true });
    if (keepImages) await Promise.all([writeAtomically(files.local, local), writeAtomically(files.upstream, upstream)]);
    const stored = { ...record, ...(keepImages && { files }) };
    await writeAtomically(join(this.#dir, `${record.id}.json`), JSON.stringify(stored));
    await this.#serially(async () => {
      const index = await this.#loadIndex();
      const entries = index.get(record.owner) ?? [];
      entries.push({ id: record.id, time: timeOf(record.id), bytes: keepImages ? bytes : 0 });
      index.set(record.owner, entries);
      await this.#prune(entries);
    });
    return keepImages ? files : undefined;
  }

  tally(owner: string, outcome: ShadowOutcome): Promise<void> {
    return this.#serially(async () => {
      const summaries = await this.#loadSummaries();
      summaries.set(
        owner,
        addToSummary(summaries.get(owner) ?? emptySummary(), tallyFields(outcome), new Date(this.#now()).toISOString()),
      );
      await mkdir(this.#dir, { recursive: true });
      await writeAtomically(join(this.#dir, SUMMARY_FILE), JSON.stringify({ owners: Object.fromEntries(summaries) }));
    });
  }

  async cases(owner: string, limit: number): Promise<ShadowCases> {
    const names = newestFirst(await readdir(this.#dir).catch(() => [] as string[]));
    const found: ShadowCases = {
      summary: (await this.#readSummaries()).get(owner) ?? emptySummary(),
      cases: [],
      unreadable: [],
    };
    for (const name of names) {
      if (found.cases.length >= limit) break;
      const record = await this.#readCase(name.slice(0, -'.json'.length), found.unreadable);
      if (record?.owner === owner) found.cases.push(record);
    }
    return found;
  }

  async image(owner: string, name: string): Promise<Uint8Array | undefined> {
    const match = SHADOW_IMAGE_NAME.exec(name);
    if (!match) return undefined;
    const record = await this.#readCase(match[1]!, []);
    if (record?.owner !== owner) return undefined;
    return readFile(join(this.#dir, name)).catch(() => undefined);
  }

  /** A case record; undefined (noted in `unreadable`) when it is missing, truncated or not a case. */
  async #readCase(stem: string, unreadable: ShadowCases['unreadable']): Promise<StoredShadowCase | undefined> {
    let text: string;
    try {
      text = await readFile(join(this.#dir, `${stem}.json`), 'utf8');
    } catch {
      return undefined; // dropped meanwhile
    }
    try {
      const record = JSON.parse(text) as StoredShadowCase;
      if (typeof record !== 'object' || record === null || typeof record.id !== 'string')
        throw new Error('not a case record');
      return record;
    } catch (err) {
      unreadable.push({ id: stem, reason: (err as Error).message });
      return undefined;
    }
  }

  /** Drops `entries`' expired cases, then the oldest while over the case or byte cap. */
  async #prune(entries: CaseEntry[]): Promise<void> {
    const { maxCases, maxBytes, ttlMs } = this.#limits;
    entries.sort((a, b) => a.time - b.time);
    let bytes = entries.reduce((sum, e) => sum + e.bytes, 0);
    const cutoff = this.#now() - ttlMs;
    while (entries.length > 0 && (entries.length > maxCases || bytes > maxBytes || entries[0]!.time < cutoff)) {
      const oldest = entries.shift()!;
      bytes -= oldest.bytes;
      // The record first: the report never lists a case whose images are gone.
      for (const suffix of ['.json', '.local.png', '.upstream.png'])
        await unlink(join(this.#dir, oldest.id + suffix)).catch(() => undefined);
    }
  }

  #loadIndex(): Promise<Map<string, CaseEntry[]>> {
    this.#index ??= (async () => {
      const index = new Map<string, CaseEntry[]>();
      for (const name of newestFirst(await readdir(this.#dir).catch(() => [] as string[]))) {
        const record = await this.#readCase(name.slice(0, -'.json'.length), []);
        if (!record || typeof record.owner !== 'string') continue; // unreadable, or from a release without owners
        const entries = index.get(record.owner) ?? [];
        const bytes = record.files ? (record.bytes?.local ?? 0) + (record.bytes?.upstream ?? 0) : 0;
        entries.push({ id: record.id, time: timeOf(record.id), bytes });
        index.set(record.owner, entries);
      }
      return index;
    })();
    return this.#index;
  }

  #loadSummaries(): Promise<Map<string, ShadowSummary>> {
    this.#summaries ??= this.#readSummaries(); // counting goes on across restarts
    return this.#summaries;
  }

  /** Every owner's summary in the folder (none when there is no readable summary, or one from a release without owners). */
  async #readSummaries(): Promise<Map<string, ShadowSummary>> {
    try {
      const { owners } = JSON.parse(await readFile(join(this.#dir, SUMMARY_FILE), 'utf8')) as {
        owners?: Record<string, Partial<ShadowSummary>>;
      };
      return new Map(
        Object.entries(owners ?? {}).map(([owner, summary]) => [owner, { ...emptySummary(), ...summary }]),
      );
    } catch {
      return new Map();
    }
  }

  #serially(work: () => Promise<void>): Promise<void> {
    const next = this.#chain.catch(() => undefined).then(work);
    this.#chain = next;
    return next;
  }
}
