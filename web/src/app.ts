// The preview page: ZPL in, the label out through the same HTTP API clients use, re-rendered as you type.
// Element boxes from the layout endpoint tie the picture to the ZPL: hover a box to see its source, move the
// caret to see its element.

import { apiErrorText, apiPath, bindApiKey, byId, byteToChar, charToByte, saveBlob } from './common.js';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface LayoutElement {
  kind: string;
  box: Box;
  span: { start: number; end: number };
}
interface Layout {
  totalCount: number;
  index: number;
  width: number;
  height: number;
  mirror: boolean;
  invert: boolean;
  elements: LayoutElement[];
}
interface Warning {
  byteIndex: number;
  byteSize: number;
  command: string;
  param: string;
  message: string;
}

const RENDER_DELAY_MS = 250;

const editor = byId<HTMLTextAreaElement>('zpl');
const editorBox = byId<HTMLDivElement>('editor-box');
const backdrop = byId<HTMLPreElement>('backdrop');
const image = byId<HTMLImageElement>('label-image');
const overlay = byId<HTMLDivElement>('overlay');
const labelCount = byId<HTMLElement>('label-count');
const labelIndex = byId<HTMLSelectElement>('label-index');
const warningList = byId<HTMLOListElement>('warnings');
const warningCount = byId<HTMLElement>('warning-count');
const errorLine = byId<HTMLParagraphElement>('error');
const busy = byId<HTMLElement>('busy');
const controls = {
  dpmm: byId<HTMLSelectElement>('dpmm'),
  width: byId<HTMLInputElement>('width'),
  height: byId<HTMLInputElement>('height'),
  rotation: byId<HTMLSelectElement>('rotation'),
  quality: byId<HTMLSelectElement>('quality'),
  linter: byId<HTMLInputElement>('linter'),
};

const apiKey = bindApiKey(byId<HTMLInputElement>('api-key'), () => schedule());

let renderSeq = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
let pngUrl: string | undefined;
let layout: Layout | undefined;
let renderedText = '';

/** Every change invalidates the picture at once (and any render under way); the new one starts after a pause. */
function schedule(): void {
  const seq = ++renderSeq;
  image.dataset.state = 'stale';
  clearTimeout(timer);
  timer = setTimeout(() => void renderNow(seq), RENDER_DELAY_MS);
}

function labelPath(): { dpmm: string; dims: string } {
  return { dpmm: controls.dpmm.value, dims: `${controls.width.value || '0'}x${controls.height.value || '0'}` };
}

function showError(text: string | undefined): void {
  errorLine.hidden = text === undefined;
  errorLine.textContent = text ?? '';
}

async function renderNow(seq: number): Promise<void> {
  const key = apiKey();
  if (!key) {
    showError('Type an API key above: the page calls the API with it (kept in this tab only).');
    return;
  }
  const text = editor.value;
  const zpl = new TextEncoder().encode(text);
  const { dpmm, dims } = labelPath();
  const index = labelIndex.value || '0';
  busy.hidden = false;
  const [png, layoutAnswer] = await Promise.all([
    fetch(`${apiPath}/printers/${dpmm}dpmm/labels/${dims}/${index}`, {
      method: 'POST',
      headers: {
        'X-API-Key': key,
        Accept: 'image/png',
        'X-Rotation': controls.rotation.value,
        'X-Quality': controls.quality.value,
        'X-Linter': controls.linter.checked ? 'On' : 'Off',
      },
      body: zpl,
    }).catch((err: unknown) => err as Error),
    fetch(`preview/layout/${dpmm}/${dims}/${index}`, {
      method: 'POST',
      headers: { 'X-API-Key': key },
      body: zpl,
    }).catch((err: unknown) => err as Error),
  ]);
  if (seq !== renderSeq) return; // a newer edit has started its own render
  busy.hidden = true;
  if (png instanceof Error) {
    showError(`The service did not answer: ${png.message}`);
    return;
  }
  if (!png.ok) {
    showError(await apiErrorText(png));
    image.dataset.state = 'error';
    return;
  }
  showError(undefined);
  const total = Number(png.headers.get('X-Total-Count') ?? '1');
  showCount(total, Number(index));
  showWarnings(parseWarnings(png.headers.get('X-Warnings') ?? ''));
  const blob = await png.blob();
  if (seq !== renderSeq) return;
  layout = layoutAnswer instanceof Error || !layoutAnswer.ok ? undefined : ((await layoutAnswer.json()) as Layout);
  renderedText = text;
  if (pngUrl) URL.revokeObjectURL(pngUrl);
  pngUrl = URL.createObjectURL(blob);
  image.onload = () => {
    if (seq === renderSeq) image.dataset.state = 'ready';
  };
  image.src = pngUrl;
  drawOverlay();
}

function showCount(total: number, index: number): void {
  labelCount.textContent = String(total);
  if (labelIndex.options.length !== total) {
    labelIndex.replaceChildren(
      ...Array.from({ length: Math.max(total, 1) }, (_, i) => new Option(String(i + 1), String(i))),
    );
    labelIndex.value = String(Math.min(index, Math.max(total - 1, 0)));
  }
}

/** X-Warnings: `byteIndex|byteSize|command|param|message`, repeated. */
function parseWarnings(header: string): Warning[] {
  if (!header) return [];
  const parts = header.split('|');
  const warnings: Warning[] = [];
  for (let i = 0; i + 4 < parts.length; i += 5) {
    warnings.push({
      byteIndex: Number(parts[i]),
      byteSize: Number(parts[i + 1]),
      command: parts[i + 2]!,
      param: parts[i + 3]!,
      message: parts[i + 4]!,
    });
  }
  return warnings;
}

function showWarnings(warnings: Warning[]): void {
  warningCount.textContent = warnings.length ? `(${warnings.length})` : '';
  warningList.replaceChildren(
    ...warnings.map((warning) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      const where = warning.command ? `${warning.command}${warning.param ? ` parameter ${warning.param}` : ''}: ` : '';
      button.textContent = `${where}${warning.message} (byte ${warning.byteIndex})`;
      button.addEventListener('click', () => selectBytes(warning.byteIndex, warning.byteIndex + warning.byteSize));
      item.append(button);
      return item;
    }),
  );
}

function selectBytes(start: number, end: number): void {
  const text = editor.value;
  editor.focus();
  editor.setSelectionRange(byteToChar(text, start), byteToChar(text, end));
}

/** Boxes in percent of the shown (rotated) image, so they scale with it. */
function drawOverlay(): void {
  overlay.replaceChildren();
  if (!layout) return;
  const rotation = Number(controls.rotation.value);
  const turned = rotation === 90 || rotation === 270;
  const shownWidth = turned ? layout.height : layout.width;
  const shownHeight = turned ? layout.width : layout.height;
  layout.elements.forEach((element, i) => {
    const { width, height, mirror, invert } = layout!;
    // As the label is finished: ^PM mirror, then ^PO I, then the requested rotation.
    const mirrored = mirror ? { ...element.box, x: width - element.box.x - element.box.width } : element.box;
    const box = rotate(invert ? rotate(mirrored, 180, width, height) : mirrored, rotation, width, height);
    const div = document.createElement('div');
    div.className = 'box';
    div.dataset.testid = 'element-box';
    div.dataset.index = String(i);
    div.dataset.start = String(element.span.start);
    div.dataset.end = String(element.span.end);
    div.title = element.kind;
    Object.assign(div.style, {
      left: `${(100 * box.x) / shownWidth}%`,
      top: `${(100 * box.y) / shownHeight}%`,
      width: `${(100 * Math.max(box.width, 1)) / shownWidth}%`,
      height: `${(100 * Math.max(box.height, 1)) / shownHeight}%`,
    });
    div.addEventListener('mouseenter', () => highlightSource(element.span.start, element.span.end));
    div.addEventListener('mouseleave', () => highlightSource());
    div.addEventListener('click', () => selectBytes(element.span.start, element.span.end));
    overlay.append(div);
  });
  markCaretElements();
}

/** A box in label dots, turned clockwise with the picture. */
function rotate(box: Box, rotation: number, width: number, height: number): Box {
  switch (rotation) {
    case 90:
      return { x: height - box.y - box.height, y: box.x, width: box.height, height: box.width };
    case 180:
      return { x: width - box.x - box.width, y: height - box.y - box.height, width: box.width, height: box.height };
    case 270:
      return { x: box.y, y: width - box.x - box.width, width: box.height, height: box.width };
    default:
      return box;
  }
}

/** Marks the ZPL bytes in the backdrop behind the editor; no arguments clears the mark. */
function highlightSource(start?: number, end?: number): void {
  const text = editor.value;
  // Offsets belong to the text that was rendered; after an edit they would point elsewhere.
  if (start === undefined || end === undefined || text !== renderedText) {
    backdrop.textContent = `${text}\n`;
    delete backdrop.dataset.highlight;
    return;
  }
  const from = byteToChar(text, start);
  const to = byteToChar(text, end);
  const mark = document.createElement('mark');
  mark.dataset.testid = 'zpl-highlight';
  mark.textContent = text.slice(from, to);
  backdrop.replaceChildren(text.slice(0, from), mark, `${text.slice(to)}\n`);
  backdrop.dataset.highlight = `${start}-${end}`;
  backdrop.scrollTop = editor.scrollTop;
  mark.scrollIntoView?.({ block: 'nearest' });
  editor.scrollTop = backdrop.scrollTop;
}

/** Outlines the elements whose ZPL holds the caret. */
function markCaretElements(): void {
  if (editor.value !== renderedText) return;
  const caret = charToByte(editor.value, editor.selectionStart);
  for (const box of overlay.querySelectorAll<HTMLDivElement>('.box')) {
    const inside = Number(box.dataset.start) <= caret && caret < Number(box.dataset.end);
    box.classList.toggle('active', inside);
  }
}

async function downloadPdf(): Promise<void> {
  const { dpmm, dims } = labelPath();
  const res = await fetch(`${apiPath}/printers/${dpmm}dpmm/labels/${dims}`, {
    method: 'POST',
    headers: { 'X-API-Key': apiKey(), Accept: 'application/pdf' },
    body: new TextEncoder().encode(editor.value),
  });
  if (!res.ok) {
    showError(await apiErrorText(res));
    return;
  }
  saveBlob(await res.blob(), 'labels.pdf');
}

editor.addEventListener('input', () => {
  highlightSource();
  schedule();
});
editor.addEventListener('scroll', () => {
  backdrop.scrollTop = editor.scrollTop;
});
for (const event of ['keyup', 'click', 'select', 'focus'] as const) editor.addEventListener(event, markCaretElements);
document.addEventListener('selectionchange', () => {
  if (document.activeElement === editor) markCaretElements();
});
for (const control of Object.values(controls)) control.addEventListener('change', schedule);
controls.width.addEventListener('input', schedule);
controls.height.addEventListener('input', schedule);
labelIndex.addEventListener('change', schedule);
byId<HTMLButtonElement>('download-png').addEventListener('click', async () => {
  if (pngUrl) saveBlob(await (await fetch(pngUrl)).blob(), `label-${Number(labelIndex.value) + 1}.png`);
});
byId<HTMLButtonElement>('download-pdf').addEventListener('click', () => void downloadPdf());

editorBox.addEventListener('dragover', (event) => {
  event.preventDefault();
  editorBox.classList.add('dragging');
});
editorBox.addEventListener('dragleave', () => editorBox.classList.remove('dragging'));
editorBox.addEventListener('drop', async (event) => {
  event.preventDefault();
  editorBox.classList.remove('dragging');
  const file = event.dataTransfer?.files[0];
  if (!file) return;
  editor.value = await file.text();
  highlightSource();
  schedule();
});

highlightSource();
schedule();
