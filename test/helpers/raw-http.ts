// HTTP over a bare TCP socket, for requests no HTTP client would send: absolute-form targets, `..` segments,
// missing Host, dribbled bodies.

import net from 'node:net';

export interface RawResponse {
  /** 0 when nothing parsable came back. */
  status: number;
  /** Header block, lower-cased names. */
  headers: Record<string, string>;
  body: string;
  /** Everything received. */
  raw: string;
}

export function parseRawResponse(raw: string): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  const head = end < 0 ? raw : raw.slice(0, end);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers, body: end < 0 ? '' : raw.slice(end + 4), raw };
}

export interface RawConnection {
  socket: net.Socket;
  /** Resolves with everything the server sent once the connection closes. */
  closed: Promise<RawResponse>;
}

export function openRaw(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    const closed = new Promise<RawResponse>((done) => {
      socket.once('close', () => done(parseRawResponse(Buffer.concat(chunks).toString('latin1'))));
    });
    socket.on('error', () => {}); // a reset shows as what was received before it
    socket.once('connect', () => resolve({ socket, closed }));
    socket.once('error', reject);
  });
}

/** Sends `request` (header block and body as given) and resolves with the answer once the server closes. */
export async function rawRequest(port: number, request: string): Promise<RawResponse> {
  const { socket, closed } = await openRaw(port);
  socket.write(request, 'latin1');
  return closed;
}
