// What every response of the legacy API must look like, whatever was sent: a known status, an
// X-Request-Id, a body of the documented shape, and nothing of the server's insides (stacks, paths, keys).

import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export const DOCUMENTED_STATUSES = [200, 400, 401, 403, 404, 406, 413, 429, 500, 503];

/** Stack frames, file paths and exception names: none of these may reach a client. */
const INTERNALS =
  /\n\s*at |\bat [\w.<>]+ \(|\/work\/|node_modules|\/dist\/|[\w-]+\.(ts|js|mjs):\d|\b(Type|Range|Reference|Syntax)Error\b|\bERR_[A-Z_]+/;

/** A response as it came off the wire. */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request with exactly these bytes (supertest re-serializes Buffers sent as form data). */
export function sendRaw(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
  timeoutMs = 60_000,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      { method, headers: { ...headers, ...(body && { 'Content-Length': String(body.length) }) }, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

export interface Sent {
  what: string;
  apiKey?: string;
}

/** Every problem with one response (empty when it is well-formed). */
export function responseProblems(res: RawResponse, sent: Sent): string[] {
  const problems: string[] = [];
  const type = String(res.headers['content-type'] ?? '');
  const body = res.body;
  const text = type.startsWith('image/') || type === 'application/pdf' ? '' : body.toString('utf8');
  if (!DOCUMENTED_STATUSES.includes(res.status)) problems.push(`status ${res.status}`);
  if (!/^[A-Za-z0-9._:-]{1,128}$/.test(String(res.headers['x-request-id'] ?? '')))
    problems.push('no usable X-Request-Id');
  if (res.status === 200) {
    if (type === 'image/png') {
      if (body.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') problems.push('200 image/png is not a PNG');
    } else if (type === 'application/pdf') {
      if (body.subarray(0, 5).toString('latin1') !== '%PDF-') problems.push('200 application/pdf is not a PDF');
    } else {
      problems.push(`200 with content type ${type}`);
    }
    if (!/^[1-9]\d*$/.test(String(res.headers['x-total-count'])))
      problems.push(`X-Total-Count ${res.headers['x-total-count']}`);
  } else if (type.startsWith('text/plain')) {
    if (!text.startsWith('ERROR: ')) problems.push(`plain-text error without "ERROR: ": ${text.slice(0, 100)}`);
    if (text === 'ERROR: Internal server error') problems.push('an unexpected failure (500 Internal server error)');
  } else if (type.startsWith('application/json')) {
    let parsed: { error?: unknown; message?: unknown } = {};
    try {
      parsed = JSON.parse(text) as typeof parsed;
    } catch {
      problems.push('JSON error body does not parse');
    }
    if (typeof parsed.error !== 'string' || typeof parsed.message !== 'string')
      problems.push(`JSON error without error/message: ${text.slice(0, 100)}`);
  } else {
    problems.push(`status ${res.status} with content type "${type}"`);
  }
  if (INTERNALS.test(text)) problems.push(`internals in the body: ${text.slice(0, 300)}`);
  const headerText = JSON.stringify(res.headers);
  if (sent.apiKey && sent.apiKey.length >= 6 && (text.includes(sent.apiKey) || headerText.includes(sent.apiKey))) {
    problems.push('the API key is echoed back');
  }
  return problems.map((p) => `${p} [${sent.what}]`);
}
