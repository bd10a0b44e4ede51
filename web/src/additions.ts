// "Add image" and "Add font": a file sent to the API's POST /graphics or POST /fonts, and the ZPL it answers put into
// the editor: a picture's ^GF field at the caret, a font's ~DU format before the label. Both endpoints are off unless
// the server turns them on; a 404 says which switch does.

import { apiErrorText, apiPath } from './common.js';
import { type Format, fieldInsertion, formatInsertion, spliced } from './zpl-formats.js';

export interface EditorAccess {
  editor: HTMLTextAreaElement;
  apiKey: () => string;
  /** The format of the label on screen, when the page knows it. */
  shownFormat: () => Format | undefined;
  /** The editor's text changed: re-render. */
  edited: () => void;
  say: (text: string, kind: 'done' | 'error') => void;
}

interface Endpoint {
  path: 'graphics' | 'fonts';
  /** The server's variable that serves it. */
  variable: string;
  /** createLegacyRouter's option that serves it. */
  option: string;
}

const GRAPHICS: Endpoint = { path: 'graphics', variable: 'GRAPHICS_ENDPOINT=1', option: 'graphicsEndpoint: true' };
const FONTS: Endpoint = { path: 'fonts', variable: 'FONTS_ENDPOINT=1', option: 'fontsEndpoint: true' };

/** The endpoint's answer as text, or undefined once the reason was said (and the button marked when it is off). */
async function send(
  endpoint: Endpoint,
  form: FormData,
  access: EditorAccess,
  button: HTMLElement,
): Promise<string | undefined> {
  const key = access.apiKey();
  if (!key) {
    access.say('Type an API key above first: the file is converted by the API.', 'error');
    return undefined;
  }
  let res: Response;
  try {
    res = await fetch(`${apiPath}/${endpoint.path}`, { method: 'POST', headers: { 'X-API-Key': key }, body: form });
  } catch (err) {
    access.say(`The service did not answer: ${(err as Error).message}`, 'error');
    return undefined;
  }
  if (res.status === 404) {
    markOff(endpoint, button);
    access.say(
      `POST /${endpoint.path} is off on this server. Start it with ${endpoint.variable} (or LEGACY_CLIENTS=1, which ` +
        `turns on every legacy client's needs), or give createLegacyRouter ${endpoint.option}.`,
      'error',
    );
    return undefined;
  }
  if (!res.ok) {
    access.say(await apiErrorText(res), 'error');
    return undefined;
  }
  return res.text();
}

function markOff(endpoint: Endpoint, button: HTMLElement): void {
  button.classList.add('off');
  button.dataset.off = endpoint.variable;
  button.title = `Off on this server: ${endpoint.variable} (or LEGACY_CLIENTS=1) turns it on`;
  const input = button.querySelector('input');
  if (input) input.disabled = true;
  const text = button.querySelector('span');
  if (text) text.textContent = `${text.textContent!.replace(/…$/, '')}: off (${endpoint.variable})`;
}

/** Puts `text` in the editor and the caret after `caret`, as an edit the page re-renders. */
function replaceText(access: EditorAccess, edit: { text: string; caret: number }): void {
  access.editor.value = edit.text;
  access.editor.focus();
  access.editor.setSelectionRange(edit.caret, edit.caret);
  access.edited();
}

/** POST /graphics, and its ^FO0,0^GFA,...^FS at the caret (see fieldInsertion). */
export async function addImage(file: File, access: EditorAccess, button: HTMLElement): Promise<void> {
  const form = new FormData();
  form.append('file', file);
  const answer = await send(GRAPHICS, form, access, button);
  if (answer === undefined) return;
  const field = /^\s*\^XA([\s\S]*\^GF[\s\S]*?)\^XZ\s*$/i.exec(answer)?.[1];
  if (!field) {
    access.say(`POST /graphics answered something else than a ^GF field: ${answer.slice(0, 80)}`, 'error');
    return;
  }
  const { editor } = access;
  const place = fieldInsertion(editor.value, editor.selectionStart, access.shownFormat());
  if (!place) {
    replaceText(access, spliced(editor.value, editor.value.length, `^XA\n${field}\n^XZ`));
    access.say('The editor held no label: the image went into a new one (^XA ... ^XZ) at the end.', 'done');
    return;
  }
  replaceText(access, spliced(editor.value, place.at, field));
  const where = {
    caret: 'at the caret',
    after: 'just after the command or field the caret was in',
    shown: 'before the ^XZ of the label shown (the caret was outside every ^XA ... ^XZ)',
  }[place.where];
  access.say(`Image ${file.name} added ${where}, as a ^GFA field at ^FO0,0: change its ^FO to move it.`, 'done');
}

/** The font fields the page sends with the file: its path, its one-letter name, the characters to keep. */
export interface FontFields {
  path: string;
  name: string;
  chars: string;
}

/** POST /fonts, and its ^XA~DU...^XZ (with ^CW when named) before the label (see formatInsertion). */
export async function addFont(
  file: File,
  fields: FontFields,
  access: EditorAccess,
  button: HTMLElement,
): Promise<void> {
  const form = new FormData();
  form.append('file', file);
  if (fields.path.trim()) form.append('path', fields.path.trim().toUpperCase());
  if (fields.name) form.append('name', fields.name);
  if (fields.chars) form.append('chars', fields.chars);
  const answer = await send(FONTS, form, access, button);
  if (answer === undefined) return;
  const format = /^\s*(\^XA~DU[\s\S]*\^XZ)\s*$/i.exec(answer)?.[1];
  const path = /~DU([^,]+),/i.exec(answer)?.[1];
  if (!format || !path) {
    access.say(`POST /fonts answered something else than a ~DU format: ${answer.slice(0, 80)}`, 'error');
    return;
  }
  const name = /\^CW([A-Z0-9]),/i.exec(format)?.[1];
  const { editor } = access;
  const place = formatInsertion(editor.value, editor.selectionStart, access.shownFormat());
  replaceText(access, spliced(editor.value, place.at, format));
  const where = { caret: 'before the label at the caret', shown: 'before the label shown', start: 'first' }[
    place.where
  ];
  access.say(
    `Font ${file.name} stored as ${path}${name ? `, named ${name}` : ''}, ${where}: draw with ` +
      `^A@N,50,50,${path}${name ? ` or ^A${name}N,50,50` : ''}.`,
    'done',
  );
}
