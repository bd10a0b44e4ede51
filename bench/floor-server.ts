// What a server on node:http that does nothing else costs per label: bare node:http, the body read whole, one in-process render, the PNG
// written back. No router, keys, limits, logs, metrics or worker. The serving-overhead section runs it in turns beside
// the real server (bench/overhead.ts), so that the real server's overhead reads against what HTTP alone costs in Node.
// Env PORT and HOST as the real server; it prints `listening on` like it, for startServer.

import { createServer } from 'node:http';
import { render } from '../renderer/render.js';
import { COST_REQUEST } from './labels.js';

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    render(Buffer.concat(chunks), COST_REQUEST).then(
      (out) => {
        res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': out.body.length }).end(out.body);
      },
      (err: Error) => {
        res.writeHead(400, { 'Content-Type': 'text/plain' }).end(err.message);
      },
    );
  });
});
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  console.log(`listening on ${JSON.stringify(server.address())}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
