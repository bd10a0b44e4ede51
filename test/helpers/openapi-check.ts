// Checks an HTTP answer against the OpenAPI document: the operation for its method and path, the status,
// the content type, the JSON or text body (JSON Schema via ajv) and the documented response headers.

import { Ajv2020 } from 'ajv/dist/2020.js';
import { buildOpenApiDocument, type ApiFeatures } from '../../middleware/ops/openapi.js';

type Json = Record<string, any>;

export interface SeenResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text (binary bodies are not checked beyond their content type). */
  text?: string;
}

export class OpenApiChecker {
  readonly doc: Json;
  readonly #ajv = new Ajv2020({ strict: false, allErrors: true });
  /** Every `status content-type` pair seen in an answer that matched the document. */
  readonly seen = new Set<string>();

  constructor(doc: Json = buildOpenApiDocument({ version: 'test' })) {
    this.doc = doc;
  }

  /** Every `status content-type` pair the document declares for the legacy paths (the router's own, or all). */
  documented({ standalone = false } = {}): Set<string> {
    const pairs = new Set<string>();
    for (const item of Object.values(this.doc.paths as Json)) {
      for (const op of Object.values(item as Json)) {
        for (const [status, response] of Object.entries((op as Json).responses as Json)) {
          if ((response as Json)['x-standalone-only'] && !standalone) continue;
          for (const type of Object.keys((response as Json).content ?? {})) pairs.add(`${status} ${type}`);
        }
      }
    }
    return pairs;
  }

  /** The operation for a method and a path below the mount point (exact segment count first, then a rest parameter). */
  operation(method: string, path: string): Json | undefined {
    const segments = path
      .split('?')[0]!
      .replace(/\/+$/, '')
      .split('/')
      .filter((s) => s !== '');
    const templates = Object.entries(this.doc.paths as Json)
      .filter(([, item]) => (item as Json)[method.toLowerCase()] !== undefined)
      .map(([template, item]) => ({
        parts: template.split('/').filter((s) => s !== ''),
        op: (item as Json)[method.toLowerCase()] as Json,
      }));
    const fits = (parts: string[], rest: boolean): boolean =>
      (rest ? segments.length >= parts.length : segments.length === parts.length) &&
      parts.every((part, i) => part.startsWith('{') || part === segments[i]);
    return (
      templates.find((t) => fits(t.parts, false))?.op ??
      templates.find((t) => t.parts.at(-1)!.startsWith('{') && fits(t.parts, true))?.op
    );
  }

  #schema(schema: Json): Json {
    const ref = schema.$ref as string | undefined;
    return ref
      ? ref
          .slice(2)
          .split('/')
          .reduce((node: Json, key) => node[key], this.doc)
      : schema;
  }

  #validate(schema: Json, value: unknown, what: string): string[] {
    const validate = this.#ajv.compile(this.#schema(schema));
    if (validate(value)) return [];
    return [`${what}: ${this.#ajv.errorsText(validate.errors)} (${JSON.stringify(value)?.slice(0, 200)})`];
  }

  /** What is wrong with the answer according to the document (empty: it matches). */
  problems(method: string, path: string, res: SeenResponse): string[] {
    const op = this.operation(method, path);
    if (!op) return [`${method} ${path}: no documented operation`];
    const response = (op.responses as Json)[String(res.status)] as Json | undefined;
    if (!response) return [`${method} ${path}: status ${res.status} is not documented`];
    const problems: string[] = [];
    const contentType = String(res.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    const media = (response.content as Json | undefined)?.[contentType] as Json | undefined;
    if (!media) {
      problems.push(`${res.status}: content type ${contentType || '(none)'} is not documented`);
    } else if (contentType === 'application/json') {
      let body: unknown;
      try {
        body = JSON.parse(res.text ?? '');
      } catch {
        problems.push(`${res.status}: body is not JSON`);
      }
      if (body !== undefined) problems.push(...this.#validate(media.schema as Json, body, `${res.status} body`));
    } else if (contentType.startsWith('text/')) {
      problems.push(...this.#validate(media.schema as Json, res.text ?? '', `${res.status} body`));
    }
    for (const [name, header] of Object.entries((response.headers ?? {}) as Json)) {
      const value = res.headers[name.toLowerCase()];
      if (value === undefined) {
        if ((header as Json).required) problems.push(`${res.status}: header ${name} is missing`);
        continue;
      }
      problems.push(...this.#validate((header as Json).schema as Json, String(value), `${res.status} header ${name}`));
    }
    if (problems.length === 0) this.seen.add(`${res.status} ${contentType}`);
    return problems;
  }
}

/** One checker for every app the test helpers build: what each answer got wrong, across the whole run. */
export const answers = { checker: new OpenApiChecker(), problems: [] as string[], checked: 0 };
// test/setup/openapi-answers.ts reads them at the end of the run, without loading this module when no test did.
(globalThis as Record<symbol, unknown>)[Symbol.for('zpl-legacy-compat.openapi-answers')] = answers;

const checkers = new Map<string, OpenApiChecker>();

/** The checker of the document that describes a router with these options (one per combination). */
export function checkerFor(api: ApiFeatures): OpenApiChecker {
  const key = JSON.stringify([
    !!api.anonymousKey,
    !!api.allowQueryKey,
    !!api.graphicsEndpoint,
    !!api.fontsEndpoint,
    api.outputs ?? [],
  ]);
  if (key === JSON.stringify([false, false, false, false, []])) return answers.checker;
  let checker = checkers.get(key);
  if (!checker) checkers.set(key, (checker = new OpenApiChecker(buildOpenApiDocument({ version: 'test', api }))));
  return checker;
}

/** checkAnswers against the document of a router with these options (the optional key, ?key=, POST /graphics, /fonts). */
export function checkAnswersFor(api: ApiFeatures) {
  const checker = checkerFor(api);
  return (req: { method: string; url: string }, res: ServerResponseLike, next: () => void): void =>
    checkWith(checker, req, res, next);
}

/**
 * Middleware (mounted at the legacy prefix, before the router) that checks every answer of a documented
 * operation against the document once it is sent. Answers of paths the document does not have are skipped.
 */
export function checkAnswers(req: { method: string; url: string }, res: ServerResponseLike, next: () => void): void {
  checkWith(answers.checker, req, res, next);
}

function checkWith(
  checker: OpenApiChecker,
  req: { method: string; url: string },
  res: ServerResponseLike,
  next: () => void,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const keep = (chunk: unknown): void => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function' || size > 65_536) return;
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    size += buf.length;
    chunks.push(buf);
  };
  const { write, end } = res;
  res.write = function (this: unknown, chunk: unknown, ...rest: unknown[]) {
    keep(chunk);
    return write.call(this, chunk, ...rest);
  };
  res.end = function (this: unknown, chunk: unknown, ...rest: unknown[]) {
    keep(chunk);
    return end.call(this, chunk, ...rest);
  };
  const url = req.url;
  res.once('finish', () => {
    if (!checker.operation(req.method, url)) return;
    const headers = Object.fromEntries(
      Object.entries(res.getHeaders()).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]),
    );
    const text = Buffer.concat(chunks).toString('utf8');
    answers.checked++;
    for (const problem of checker.problems(req.method, url, { status: res.statusCode, headers, text })) {
      answers.problems.push(`${req.method} ${url.slice(0, 80)}: ${problem}`);
    }
  });
  next();
}

interface ServerResponseLike {
  statusCode: number;
  write: (...args: any[]) => any;
  end: (...args: any[]) => any;
  once(event: 'finish', listener: () => void): unknown;
  getHeaders(): Record<string, number | string | string[] | undefined>;
}
