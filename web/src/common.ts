// Shared by the preview page and the shadow report: the API key (session storage only), API errors as the
// API words them, and UTF-8 byte offsets (what the API and the layout speak) against editor characters.

const KEY_STORAGE = 'zpl-preview-api-key';

// Relative to the page, as every URL the pages fetch: behind a reverse proxy under a sub-path (/zpl/) they stay below it.
export const apiPath: string = (document.body.dataset.apiPath ?? '/compatibility/legacy/v1').replace(/^\/+/, '');

export function byId<T extends HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`missing #${id}`);
  return element as T;
}

/** Binds the key field to session storage; calls `changed` when the key is edited. */
export function bindApiKey(input: HTMLInputElement, changed: () => void): () => string {
  input.value = sessionStorage.getItem(KEY_STORAGE) ?? '';
  input.addEventListener('input', () => {
    sessionStorage.setItem(KEY_STORAGE, input.value.trim());
    changed();
  });
  return () => input.value.trim();
}

/** The error body as the API sent it: `ERROR: ...` text, or the message of a JSON error. */
export async function apiErrorText(res: Response): Promise<string> {
  const text = await res.text();
  if ((res.headers.get('Content-Type') ?? '').includes('application/json')) {
    try {
      const body = JSON.parse(text) as { error?: string; message?: string };
      if (body.message) return `${res.status} ${body.error ?? ''}: ${body.message}`;
    } catch {
      /* not JSON after all: show it as sent */
    }
  }
  return text || `HTTP ${res.status}`;
}

function utf8Length(codePoint: number): number {
  return codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
}

/** Character index (UTF-16) in `text` where byte offset `byte` of its UTF-8 encoding falls. */
export function byteToChar(text: string, byte: number): number {
  let bytes = 0;
  let index = 0;
  while (index < text.length && bytes < byte) {
    const codePoint = text.codePointAt(index)!;
    bytes += utf8Length(codePoint);
    index += codePoint > 0xffff ? 2 : 1;
  }
  return index;
}

/** UTF-8 byte offset of character index `char` in `text`. */
export function charToByte(text: string, char: number): number {
  let bytes = 0;
  for (let index = 0; index < char && index < text.length; ) {
    const codePoint = text.codePointAt(index)!;
    bytes += utf8Length(codePoint);
    index += codePoint > 0xffff ? 2 : 1;
  }
  return bytes;
}

export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
