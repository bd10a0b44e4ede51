// The printer feed in this process: jobs and their label images in a map, dropped by the limits on each add, events
// to this process's listeners only. The default feed, and what a host app gets without a shared backend.

import {
  DEFAULT_PRINTER_FEED_LIMITS,
  PrinterFeedListeners,
  printedLabelBytes,
  type PrintedLabel,
  type PrinterFeed,
  type PrinterFeedLimits,
  type PrinterJobRecord,
} from '../printer-feed.js';

interface KeptJob {
  job: PrinterJobRecord;
  /** Absent once the byte cap took the job's images. */
  labels?: PrintedLabel[];
  bytes: number;
  keptAt: number;
}

/** Copies a record so that callers can change neither what is kept nor what another caller got. */
function copyJob(job: PrinterJobRecord): PrinterJobRecord {
  const copy: PrinterJobRecord = { ...job, warnings: [...job.warnings] };
  if (job.forward) copy.forward = { ...job.forward };
  return copy;
}

/** The feed in this process: nothing shared between instances, nothing outlives the process. */
export function createMemoryPrinterFeed(
  limits: Partial<PrinterFeedLimits> = {},
  clock: () => number = Date.now,
): PrinterFeed {
  const { maxJobs, maxBytes, ttlMs } = { ...DEFAULT_PRINTER_FEED_LIMITS, ...limits };
  const jobs = new Map<string, KeptJob>();
  const listeners = new PrinterFeedListeners();
  let closed = false;

  const newestFirst = () => [...jobs.values()].sort((a, b) => (a.job.id < b.job.id ? 1 : a.job.id > b.job.id ? -1 : 0));

  function prune(): void {
    const oldest = clock() - ttlMs;
    for (const [id, kept] of jobs) if (kept.keptAt <= oldest) jobs.delete(id);
    const ordered = newestFirst();
    for (const kept of ordered.slice(maxJobs)) jobs.delete(kept.job.id);
    let bytes = 0;
    for (const kept of ordered) bytes += kept.labels ? kept.bytes : 0;
    for (let i = Math.min(ordered.length, maxJobs) - 1; i >= 0 && bytes > maxBytes; i--) {
      const kept = ordered[i]!;
      if (!kept.labels) continue;
      bytes -= kept.bytes;
      kept.labels = undefined;
    }
  }

  return {
    async add(job, labels) {
      if (closed) throw new Error('the printer feed is closed');
      const kept = labels.map((label) => ({ index: label.index, png: label.png, pdf: label.pdf }));
      jobs.set(job.id, { job: copyJob(job), labels: kept, bytes: printedLabelBytes(labels), keptAt: clock() });
      prune();
      if (jobs.has(job.id)) listeners.notify({ type: 'job', job: copyJob(job) });
    },
    async update(job) {
      const kept = jobs.get(job.id);
      if (!kept || closed) return;
      kept.job = copyJob(job);
      listeners.notify({ type: 'job', job: copyJob(job) });
    },
    async list(limit) {
      return newestFirst()
        .slice(0, Math.max(0, limit))
        .map((kept) => copyJob(kept.job));
    },
    async get(id) {
      const kept = jobs.get(id);
      return kept ? copyJob(kept.job) : undefined;
    },
    async label(id, index, type) {
      const label = jobs.get(id)?.labels?.find((candidate) => candidate.index === index);
      return type === 'png' ? label?.png : label?.pdf;
    },
    subscribe(listener) {
      return listeners.add(listener);
    },
    async close() {
      closed = true;
      listeners.clear();
      jobs.clear();
    },
  };
}
