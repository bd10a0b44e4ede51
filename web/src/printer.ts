// The printer view: every job the printer port received, newest first, with its labels as printed and the linter's
// warnings. Jobs arrive live: the page opens the event stream (fetch, so the key travels in a header, never in an
// address), then lists the jobs kept so far; a lost stream is opened again and the list read again.

import { apiErrorText, bindApiKey, byId } from './common.js';

interface PrinterJob {
  id: string;
  time: string;
  client: string;
  bytes: number;
  labels: number;
  warnings: string[];
  forward?: { status: 'sent' | 'retrying' | 'failed'; attempts: number; error?: string };
}

/** Labels drawn per job at most: a job of a thousand copies shows its first ones. */
const MAX_LABELS_SHOWN = 20;
const RECONNECT_MS = 1000;

const errorLine = byId<HTMLParagraphElement>('error');
const stateLine = byId<HTMLParagraphElement>('state');
const jobsView = byId<HTMLDivElement>('jobs');
const apiKey = bindApiKey(byId<HTMLInputElement>('api-key'), () => connect());
/** Each shown job's view, by id. */
const shown = new Map<string, HTMLElement>();
let session: AbortController | undefined;

function connect(): void {
  session?.abort();
  session = new AbortController();
  shown.clear();
  jobsView.replaceChildren();
  const key = apiKey();
  if (!key) {
    showError('Type an API key above to see the printed labels.');
    setState('idle', 'Not connected.');
    return;
  }
  void follow(key, session.signal);
}

/** Keeps the stream open while this session lasts: opens it, lists the jobs, shows events; again after a loss. */
async function follow(key: string, signal: AbortSignal): Promise<void> {
  while (!signal.aborted) {
    try {
      const res = await fetch('printer/events', { headers: { 'X-API-Key': key }, signal });
      if (!res.ok || !res.body) {
        showError(await apiErrorText(res));
        setState('error', 'Not connected.');
        return; // a wrong key stays wrong: wait for the key to change
      }
      await readEvents(res.body, key, signal);
    } catch {
      // the stream broke (server restarting, network): try again below
    }
    if (signal.aborted) return;
    setState('reconnecting', 'Connection lost; connecting again…');
    await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
  }
}

async function readEvents(body: ReadableStream<Uint8Array>, key: string, signal: AbortSignal): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  let listed = false;
  for (;;) {
    const { value, done } = await reader.read();
    if (done || signal.aborted) return;
    buffered += decoder.decode(value, { stream: true });
    // The first line says the stream is open: jobs kept before it are read now, later ones come as events.
    if (!listed) {
      listed = true;
      if (!(await listJobs(key))) return;
      showError(undefined);
      setState('live', 'Connected: labels appear as the printer receives them.');
    }
    let end = buffered.indexOf('\n\n');
    while (end >= 0) {
      const block = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      end = buffered.indexOf('\n\n');
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice('data: '.length))
        .join('\n');
      if (data) showJob(JSON.parse(data) as PrinterJob, key);
    }
  }
}

async function listJobs(key: string): Promise<boolean> {
  const res = await fetch('printer/jobs?limit=50', { headers: { 'X-API-Key': key } });
  if (!res.ok) {
    showError(await apiErrorText(res));
    return false;
  }
  const { jobs } = (await res.json()) as { jobs: PrinterJob[] };
  for (const job of jobs.reverse()) showJob(job, key);
  return true;
}

/** Adds a job in its place (newest first), or refreshes the summary of one already shown (its forward status). */
function showJob(job: PrinterJob, key: string): void {
  const existing = shown.get(job.id);
  if (existing) {
    existing.querySelector('h3')!.replaceWith(jobTitle(job));
    return;
  }
  const view = document.createElement('article');
  view.className = 'job';
  view.dataset.testid = 'printer-job';
  view.dataset.id = job.id;
  const warnings = document.createElement('ul');
  warnings.className = 'warnings';
  warnings.dataset.testid = 'job-warnings';
  for (const warning of job.warnings) {
    const item = document.createElement('li');
    item.textContent = warning;
    warnings.append(item);
  }
  const labels = document.createElement('div');
  labels.className = 'labels';
  view.append(jobTitle(job), warnings, labels);
  const count = Math.min(job.labels, MAX_LABELS_SHOWN);
  for (let index = 0; index < count; index++) labels.append(labelFigure(job, index, key));
  if (job.labels > count) {
    const more = document.createElement('p');
    more.className = 'muted';
    more.textContent = `and ${job.labels - count} more labels`;
    labels.append(more);
  }
  // Newest first: ids sort by time.
  const after = [...shown.entries()].filter(([id]) => id < job.id).sort(([a], [b]) => (a < b ? 1 : -1))[0];
  if (after) jobsView.insertBefore(view, after[1]);
  else jobsView.append(view);
  shown.set(job.id, view);
}

function jobTitle(job: PrinterJob): HTMLElement {
  const title = document.createElement('h3');
  const labels = `${job.labels} label${job.labels === 1 ? '' : 's'}`;
  title.textContent = `${new Date(job.time).toLocaleString()} · from ${job.client} · ${job.bytes} bytes · ${labels}`;
  if (job.forward) {
    const forward = document.createElement('span');
    forward.className = 'forward';
    forward.dataset.status = job.forward.status;
    forward.dataset.testid = 'job-forward';
    const error = job.forward.error ? `: ${job.forward.error}` : '';
    forward.textContent = ` · forward ${job.forward.status} (${job.forward.attempts} attempts${error})`;
    title.append(forward);
  }
  return title;
}

function labelFigure(job: PrinterJob, index: number, key: string): HTMLElement {
  const figure = document.createElement('figure');
  const caption = document.createElement('figcaption');
  caption.textContent = `Label ${index + 1}`;
  const image = new Image();
  image.dataset.testid = 'printer-label';
  image.alt = `Label ${index + 1} of job ${job.id}`;
  figure.append(image, caption);
  const base = `printer/jobs/${encodeURIComponent(job.id)}/labels/${index}`;
  void fetch(`${base}.png`, { headers: { 'X-API-Key': key } }).then(async (res) => {
    if (!res.ok) {
      caption.textContent = `Label ${index + 1}: image not kept`;
      image.dataset.state = 'missing';
      return;
    }
    image.src = URL.createObjectURL(await res.blob());
    await image.decode().catch(() => undefined);
    image.dataset.state = 'ready';
  });
  const pdf = document.createElement('button');
  pdf.type = 'button';
  pdf.className = 'button';
  pdf.textContent = 'PDF';
  pdf.addEventListener('click', async () => {
    const res = await fetch(`${base}.pdf`, { headers: { 'X-API-Key': key } });
    if (res.ok) window.open(URL.createObjectURL(await res.blob()), '_blank', 'noopener');
    else caption.textContent = `Label ${index + 1}: no PDF kept`;
  });
  caption.append(' ', pdf);
  return figure;
}

function showError(text: string | undefined): void {
  errorLine.hidden = text === undefined;
  errorLine.textContent = text ?? '';
}

function setState(state: string, text: string): void {
  stateLine.dataset.state = state;
  stateLine.textContent = text;
}

connect();
