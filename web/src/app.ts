// The preview page: ZPL in, the label out through the same HTTP API clients use, re-rendered as you type.
// Element boxes from the layout endpoint tie the picture to the ZPL: hover a box to see its source, move the
// caret to see its element. Its address is the legacy viewer's permalink of what it shows.

import { addFont, addImage, type EditorAccess } from './additions.js';
import { apiErrorText, apiPath, bindApiKey, byId, byteToChar, charToByte, saveBlob } from './common.js';
import { boundsIn, exactText, isUnit, type Length, shownText, UNITS, type Unit, valueIn } from './label-size.js';
import { readPermalink, type ViewerSettings, writePermalink } from './permalink.js';
import { type Format, formatsOf } from './zpl-formats.js';

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
/**
 * Longest address the page writes with its ZPL: the standalone server reads at most 16 KiB of request line and
 * headers (Node's default), so a longer link would not open.
 */
const MAX_LINK_CHARS = 12_000;

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
const keyHelp = byId<HTMLElement>('key-help');
const status = byId<HTMLElement>('status');
const labelWrap = byId<HTMLElement>('label-wrap');
const dotsLine = byId<HTMLElement>('dots');
const linkField = byId<HTMLInputElement>('link');
const linkNote = byId<HTMLElement>('link-note');
const addStatus = byId<HTMLElement>('add-status');
const controls = {
  dpmm: byId<HTMLSelectElement>('dpmm'),
  width: byId<HTMLInputElement>('width'),
  height: byId<HTMLInputElement>('height'),
  units: byId<HTMLSelectElement>('units'),
  rotation: byId<HTMLSelectElement>('rotation'),
  quality: byId<HTMLSelectElement>('quality'),
  linter: byId<HTMLInputElement>('linter'),
};
const fontFields = {
  path: byId<HTMLInputElement>('font-path'),
  name: byId<HTMLSelectElement>('font-name'),
  chars: byId<HTMLInputElement>('font-chars'),
};

/** The API's label size bounds in inches, as the server states them. */
const [minInches, maxInches] = (document.body.dataset.labelInches ?? '0.001 15').split(' ').map(Number) as [
  number,
  number,
];

const apiKey = bindApiKey(byId<HTMLInputElement>('api-key'), () => schedule());

/** Width and height as typed, each in the unit it was typed in. */
const size: Record<'width' | 'height', Length> = {
  width: { text: controls.width.value, unit: 'inches' },
  height: { text: controls.height.value, unit: 'inches' },
};
let unit: Unit = 'inches';
/** The label asked for (zero-based); the selector offers it even before the count is known. */
let wantedIndex = 0;

let renderSeq = 0;
let timer: ReturnType<typeof setTimeout> | undefined;
let pngUrl: string | undefined;
let pngBlob: Blob | undefined;
let layout: Layout | undefined;
let renderedText = '';

/** Every change invalidates the picture at once (and any render under way); the new one starts after a pause. */
function schedule(): void {
  const seq = ++renderSeq;
  image.dataset.state = 'stale';
  clearTimeout(timer);
  writeAddress();
  timer = setTimeout(() => void renderNow(seq), RENDER_DELAY_MS);
}

/** The API's path parameters for the label's density and size, or why the size cannot be asked for (in the unit shown). */
function labelPath(): { dpmm: string; dims: string } | { problem: string } {
  const inches: string[] = [];
  for (const side of ['width', 'height'] as const) {
    const value = valueIn(size[side], 'inches');
    if (value === undefined || value < minInches || value > maxInches) {
      const { min, max } = boundsIn({ min: minInches, max: maxInches }, unit);
      return { problem: `The label's ${side} must be a number from ${min} to ${max} ${UNITS[unit].symbol}.` };
    }
    inches.push(exactText(size[side], 'inches')!);
  }
  return { dpmm: controls.dpmm.value, dims: inches.join('x') };
}

/** The label's size in dots as the API drew it (before the requested rotation). */
function showDots(): void {
  const turned = controls.rotation.value === '90' || controls.rotation.value === '270';
  const [width, height] = turned
    ? [image.naturalHeight, image.naturalWidth]
    : [image.naturalWidth, image.naturalHeight];
  dotsLine.textContent = `${width} × ${height} dots`;
}

function showError(text: string | undefined): void {
  errorLine.hidden = text === undefined;
  errorLine.textContent = text ?? '';
}

/** Without a key there is no picture to show: how to get one instead. */
function showKeyHelp(shown: boolean): void {
  keyHelp.hidden = !shown;
  if (shown) {
    status.hidden = true;
    labelWrap.hidden = true;
  }
}

async function renderNow(seq: number): Promise<void> {
  const key = apiKey();
  if (!key) {
    showError(undefined);
    showKeyHelp(true);
    return;
  }
  showKeyHelp(false);
  const text = editor.value;
  const zpl = new TextEncoder().encode(text);
  const path = labelPath();
  if ('problem' in path) {
    showError(path.problem);
    return;
  }
  const { dpmm, dims } = path;
  const index = String(wantedIndex);
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
    const problem = await apiErrorText(png);
    showError(problem);
    // A key the API does not know: how to get one, as before any key.
    if (png.status === 401) showKeyHelp(true);
    image.dataset.state = 'error';
    return;
  }
  showError(undefined);
  const total = Number(png.headers.get('X-Total-Count') ?? '1');
  showCount(total);
  showWarnings(
    parseWarnings(png.headers.get('X-Warnings') ?? ''),
    parseOmitted(png.headers.get('X-Warnings-Omitted'), png.headers.get('X-Warnings-Omitted-Commands')),
  );
  const blob = await png.blob();
  if (seq !== renderSeq) return;
  layout = layoutAnswer instanceof Error || !layoutAnswer.ok ? undefined : ((await layoutAnswer.json()) as Layout);
  renderedText = text;
  if (pngUrl) URL.revokeObjectURL(pngUrl);
  pngBlob = blob;
  pngUrl = URL.createObjectURL(blob);
  image.onload = () => {
    if (seq !== renderSeq) return;
    showDots();
    image.dataset.state = 'ready';
  };
  image.src = pngUrl;
  status.hidden = false;
  labelWrap.hidden = false;
  drawOverlay();
}

function showCount(total: number): void {
  labelCount.textContent = String(total);
  offerLabels(total);
}

/** One option per label, and the one asked for even past the count (its error says so). */
function offerLabels(total: number): void {
  const options = Math.max(total, wantedIndex + 1, 1);
  if (labelIndex.options.length !== options) {
    labelIndex.replaceChildren(...Array.from({ length: options }, (_, i) => new Option(String(i + 1), String(i))));
  }
  labelIndex.value = String(wantedIndex);
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

/** Diagnostics the answer does not list (X-Warnings-Omitted), by command (X-Warnings-Omitted-Commands). */
interface Omitted {
  total: number;
  byCommand: [string, number][];
}

/** X-Warnings-Omitted: a count; X-Warnings-Omitted-Commands: `command|count`, repeated. */
function parseOmitted(total: string | null, commands: string | null): Omitted | undefined {
  const n = Number(total ?? '');
  if (!(n > 0)) return undefined;
  const parts = (commands ?? '').split('|');
  const byCommand: [string, number][] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) byCommand.push([parts[i]!, Number(parts[i + 1])]);
  return { total: n, byCommand };
}

/** Counts with thousands separators, as the page's reader reads them: 299,980. */
const count = (n: number): string => n.toLocaleString('en-US');

function showWarnings(warnings: Warning[], omitted?: Omitted): void {
  const total = warnings.length + (omitted?.total ?? 0);
  warningCount.textContent = total ? `(${count(total)})` : '';
  const more = document.createElement('li');
  more.className = 'more';
  more.dataset.testid = 'warnings-omitted';
  if (omitted) {
    const commands = omitted.byCommand.map(([command, n]) => `${command || '(none)'} ${count(n)}`).join(', ');
    more.textContent = `and ${count(omitted.total)} more${commands ? `: ${commands}` : ''}`;
  }
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
    ...(omitted ? [more] : []),
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
  const path = labelPath();
  if ('problem' in path) return showError(path.problem);
  const { dpmm, dims } = path;
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

/** What the page shows, as the legacy viewer's permalink names it. */
function settings(): ViewerSettings {
  return {
    density: controls.dpmm.value,
    quality: controls.quality.value === 'bitonal' ? 'bitonal' : 'grayscale',
    width: exactText(size.width, unit) ?? controls.width.value,
    height: exactText(size.height, unit) ?? controls.height.value,
    units: unit,
    index: wantedIndex,
    rotation: controls.rotation.value as ViewerSettings['rotation'],
    zpl: editor.value,
  };
}

function permalink(query = writePermalink(settings())): string {
  return `${location.origin}${location.pathname}?${query}`;
}

/** The address bar follows the page (never the key); a link too long to open keeps the settings only. */
function writeAddress(): void {
  const query = writePermalink(settings());
  const link = permalink(query);
  const tooLong = link.length > MAX_LINK_CHARS;
  linkNote.hidden = !tooLong;
  linkNote.textContent = tooLong
    ? `This label's link is ${link.length} characters, too long to open (servers read about ${MAX_LINK_CHARS}): ` +
      'the address keeps the settings only; send the ZPL itself.'
    : '';
  linkField.value = tooLong ? '' : link;
  history.replaceState(history.state, '', `?${tooLong ? query.slice(0, query.indexOf('&zpl=')) : query}`);
}

async function copyLink(): Promise<void> {
  const link = permalink();
  linkField.value = link;
  try {
    await navigator.clipboard.writeText(link);
    linkField.dataset.copied = 'true';
  } catch {
    // No clipboard (an insecure origin, a refused permission): leave the link selected to copy by hand.
    linkField.focus();
    linkField.select();
  }
}

/** Shows the lengths in `next`, with its bounds and steps. */
function showUnit(next: Unit): void {
  unit = next;
  controls.units.value = next;
  const { min, max } = boundsIn({ min: minInches, max: maxInches }, next);
  for (const side of ['width', 'height'] as const) {
    const input = controls[side];
    input.value = shownText(size[side], next);
    input.min = min;
    input.max = max;
    input.step = UNITS[next].step;
    input.title = `${min} to ${max} ${UNITS[next].symbol}`;
    input.parentElement!.querySelector('.unit')!.textContent = UNITS[next].symbol;
  }
}

/** A permalink's settings (missing ones stay as they are). */
function applySettings(given: Partial<ViewerSettings>): void {
  if (given.density) controls.dpmm.value = given.density;
  if (given.quality) controls.quality.value = given.quality;
  if (given.rotation) controls.rotation.value = given.rotation;
  const givenUnit = given.units ?? unit;
  for (const side of ['width', 'height'] as const) {
    const text = given[side];
    if (text !== undefined) size[side] = { text, unit: givenUnit };
  }
  showUnit(givenUnit);
  if (given.index !== undefined) wantedIndex = given.index;
  offerLabels(0);
  if (given.zpl !== undefined) editor.value = given.zpl;
}

/** The label on screen's format: the one holding its first element's source, else the index-th. */
function shownFormat(): Format | undefined {
  const text = editor.value;
  const formats = formatsOf(text);
  const first = text === renderedText ? layout?.elements[0] : undefined;
  if (first) {
    const at = byteToChar(text, first.span.start);
    const holding = formats.find((format) => format.start <= at && at < format.end);
    if (holding) return holding;
  }
  return formats[Math.min(wantedIndex, formats.length - 1)];
}

function edited(): void {
  highlightSource();
  schedule();
}

const access: EditorAccess = {
  editor,
  apiKey,
  shownFormat,
  edited,
  say: (text, kind) => {
    addStatus.hidden = false;
    addStatus.textContent = text;
    addStatus.dataset.kind = kind;
  },
};

editor.addEventListener('input', edited);
editor.addEventListener('scroll', () => {
  backdrop.scrollTop = editor.scrollTop;
});
for (const event of ['keyup', 'click', 'select', 'focus'] as const) editor.addEventListener(event, markCaretElements);
document.addEventListener('selectionchange', () => {
  if (document.activeElement === editor) markCaretElements();
});
for (const control of [controls.dpmm, controls.rotation, controls.quality, controls.linter]) {
  control.addEventListener('change', schedule);
}
for (const side of ['width', 'height'] as const) {
  controls[side].addEventListener('input', () => {
    size[side] = { text: controls[side].value.trim(), unit };
    schedule();
  });
}
controls.units.addEventListener('change', () => {
  if (isUnit(controls.units.value)) showUnit(controls.units.value);
  schedule();
});
labelIndex.addEventListener('change', () => {
  wantedIndex = Number(labelIndex.value);
  schedule();
});
byId<HTMLButtonElement>('download-png').addEventListener('click', () => {
  if (pngBlob) saveBlob(pngBlob, `label-${wantedIndex + 1}.png`);
});
byId<HTMLButtonElement>('download-pdf').addEventListener('click', () => void downloadPdf());
byId<HTMLButtonElement>('copy-link').addEventListener('click', () => void copyLink());

fontFields.name.append(...[...(document.body.dataset.fontNames ?? '')].map((letter) => new Option(letter, letter)));
const imageInput = byId<HTMLInputElement>('add-image');
imageInput.addEventListener('change', async () => {
  const file = imageInput.files?.[0];
  imageInput.value = '';
  if (file) await addImage(file, access, byId('add-image-button'));
});
const fontInput = byId<HTMLInputElement>('add-font');
fontInput.addEventListener('change', async () => {
  const file = fontInput.files?.[0];
  fontInput.value = '';
  const fields = { path: fontFields.path.value, name: fontFields.name.value, chars: fontFields.chars.value };
  if (file) await addFont(file, fields, access, byId('add-font-button'));
});

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
  edited();
});

applySettings(readPermalink(location.search));
highlightSource();
schedule();
