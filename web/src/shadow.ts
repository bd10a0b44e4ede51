// The shadow report: every divergent case shadow mode stored, newest first, with the legacy label, ours and a
// difference overlay (red: ink only in the legacy label; blue: ink only in ours), plus the running summary.

import { apiErrorText, bindApiKey, byId } from './common.js';

interface ShadowCase {
  id: string;
  time: string;
  endpoint: string;
  score: number;
  index: number;
  labels: { local: number; upstream: number | null };
  upstreamStatus: number;
  images: { local: string; upstream: string };
}
interface ShadowReport {
  summary: {
    compared: number;
    matched: number;
    diverged: number;
    upstreamErrors: number;
    scores: Record<string, number>;
    updatedAt: string | null;
  };
  cases: ShadowCase[];
}

const INK_BELOW = 128;
const errorLine = byId<HTMLParagraphElement>('error');
const apiKey = bindApiKey(byId<HTMLInputElement>('api-key'), () => void load());

async function load(): Promise<void> {
  const key = apiKey();
  if (!key) {
    showError('Type an API key above to see stored labels.');
    return;
  }
  const res = await fetch('shadow/cases.json', { headers: { 'X-API-Key': key } });
  if (!res.ok) {
    showError(await apiErrorText(res));
    return;
  }
  showError(undefined);
  const report = (await res.json()) as ShadowReport;
  showSummary(report.summary);
  const cases = byId<HTMLDivElement>('cases');
  cases.replaceChildren(...report.cases.map((c) => caseView(c, key)));
  cases.dataset.state = 'ready';
}

function showError(text: string | undefined): void {
  errorLine.hidden = text === undefined;
  errorLine.textContent = text ?? '';
}

function showSummary(summary: ShadowReport['summary']): void {
  byId('compared').textContent = String(summary.compared);
  byId('matched').textContent = String(summary.matched);
  byId('diverged').textContent = String(summary.diverged);
  byId('upstream-errors').textContent = String(summary.upstreamErrors);
  byId('updated').textContent = summary.updatedAt ?? 'never';
  const most = Math.max(1, ...Object.values(summary.scores));
  byId('histogram').replaceChildren(
    ...Object.entries(summary.scores).flatMap(([bucket, count]) => {
      const label = document.createElement('span');
      label.textContent = bucket;
      const bar = document.createElement('div');
      bar.className = 'bar';
      bar.style.width = `${(100 * count) / most}%`;
      const value = document.createElement('span');
      value.textContent = String(count);
      return [label, bar, value];
    }),
  );
}

function caseView(shadowCase: ShadowCase, key: string): HTMLElement {
  const view = document.createElement('article');
  view.className = 'case';
  view.dataset.testid = 'shadow-case';
  view.dataset.id = shadowCase.id;
  const title = document.createElement('h3');
  const upstreamLabels = shadowCase.labels.upstream ?? '?';
  title.textContent =
    `${new Date(shadowCase.time).toLocaleString()} · ${shadowCase.endpoint} · score ${shadowCase.score.toFixed(4)}` +
    ` · label ${shadowCase.index + 1} · labels ours ${shadowCase.labels.local} / legacy ${upstreamLabels}` +
    ` · legacy status ${shadowCase.upstreamStatus}`;
  const images = document.createElement('div');
  images.className = 'images';
  view.append(title, images);
  void Promise.all([fetchImage(shadowCase.images.upstream, key), fetchImage(shadowCase.images.local, key)]).then(
    ([theirs, ours]) => {
      const diff = diffCanvas(theirs, ours);
      images.append(
        figure('Legacy service', theirs, 'legacy-image'),
        figure('This service', ours, 'local-image'),
        figure('Difference', diff, 'diff'),
      );
      view.dataset.state = 'ready';
    },
  );
  return view;
}

async function fetchImage(name: string, key: string): Promise<HTMLImageElement> {
  const res = await fetch(`shadow/images/${encodeURIComponent(name)}`, { headers: { 'X-API-Key': key } });
  const image = new Image();
  image.src = URL.createObjectURL(await res.blob());
  await image.decode().catch(() => undefined);
  return image;
}

function figure(caption: string, content: HTMLElement, testid: string): HTMLElement {
  const fig = document.createElement('figure');
  content.dataset.testid = testid;
  const text = document.createElement('figcaption');
  text.textContent = caption;
  fig.append(content, text);
  return fig;
}

function pixels(image: HTMLImageElement, width: number, height: number): Uint8ClampedArray {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d')!;
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  context.drawImage(image, 0, 0);
  return context.getImageData(0, 0, width, height).data;
}

/** Red: ink only in the legacy label; blue: ink only in ours; black: both; white: neither. */
function diffCanvas(theirs: HTMLImageElement, ours: HTMLImageElement): HTMLCanvasElement {
  const width = Math.max(theirs.naturalWidth, ours.naturalWidth, 1);
  const height = Math.max(theirs.naturalHeight, ours.naturalHeight, 1);
  const a = pixels(theirs, width, height);
  const b = pixels(ours, width, height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d')!;
  const out = context.createImageData(width, height);
  for (let i = 0; i < out.data.length; i += 4) {
    const inkTheirs = a[i]! < INK_BELOW;
    const inkOurs = b[i]! < INK_BELOW;
    const [r, g, bl] =
      inkTheirs && inkOurs ? [0, 0, 0] : inkTheirs ? [255, 0, 0] : inkOurs ? [0, 0, 255] : [255, 255, 255];
    out.data[i] = r;
    out.data[i + 1] = g;
    out.data[i + 2] = bl;
    out.data[i + 3] = 255;
  }
  context.putImageData(out, 0, 0);
  return canvas;
}

void load();
