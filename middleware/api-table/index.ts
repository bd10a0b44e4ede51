// The legacy API as data: endpoints, path parameters, request headers, response headers and error answers.
// Validation (path-params.ts, request-headers.ts, page-composition.ts), routing, CORS, the forwarded-header list
// and the OpenAPI document all read these tables, so what is checked and what is documented cannot drift apart.

export * from './table-entry.js';
export * from './paths.js';
export * from './request-headers.js';
export * from './response-headers.js';
export * from './routes.js';
export * from './graphics-query.js';
export * from './errors.js';
export * from './form-fields.js';
