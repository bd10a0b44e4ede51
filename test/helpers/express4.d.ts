// The `express4` devDependency is Express 4 under another name (npm:express@^4); its API as used by the
// host tests (json, urlencoded, text, raw, use, get, post, listen) matches Express 5's declarations.
declare module 'express4' {
  import express from 'express';
  export = express;
}
