/**
 * HTTP requests written byte by byte on a socket, for bodies no client library sends:
 * truncated multipart bodies, header bytes no encoder produces, bodies that stall or stop.
 */
import net from 'node:net';

export interface RawAnswer {
  /** null when the connection closed (or the wait ended) without a status line */
  status: number | null;
  body: { code?: number; message?: string; data?: unknown } | null;
  text: string;
  ms: number;
  /** no answer before `waitMs` */
  timedOut: boolean;
}

export interface RawRequest {
  path: string;
  headers: Record<string, string>;
  body: Buffer;
  /** declared Content-Length (default: the body's); larger = the rest never comes */
  contentLength?: number;
  /** stop waiting for an answer after this long */
  waitMs?: number;
  /** destroy the socket this long after the body was written (a client that goes away) */
  abortAfterMs?: number;
}

export const BOUNDARY = 'hostileBoundary7MA4YWxkTrZu0gW';

/** One multipart part with raw header bytes (latin1, so any byte can be placed). */
export function part(disposition: string, contentType: string, data: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\nContent-Type: ${contentType}\r\n\r\n`, 'latin1'),
    data,
    Buffer.from('\r\n', 'latin1'),
  ]);
}
export const closing = Buffer.from(`--${BOUNDARY}--\r\n`, 'latin1');
export const multipartType = `multipart/form-data; boundary=${BOUNDARY}`;

export function rawRequest(baseUrl: string, r: RawRequest): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    // said in a failure's text: a reset before any byte is a different defect from a silent close
    let socketError = '';
    let done = false;
    const finish = (timedOut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(wait);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8') || socketError;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      const bodyText = text.slice(text.indexOf('\r\n\r\n') + 4);
      let body: RawAnswer['body'] = null;
      try {
        body = JSON.parse(dechunk(bodyText, text));
      } catch {
        body = null;
      }
      resolve({ status: m ? Number(m[1]) : null, body, text, ms: Date.now() - started, timedOut });
    };
    const wait = setTimeout(() => finish(true), r.waitMs ?? 30_000);
    socket.on('data', (d) => {
      chunks.push(d);
      // A complete JSON answer ends the wait even if the server keeps the connection.
      const text = Buffer.concat(chunks).toString('utf8');
      const at = text.indexOf('\r\n\r\n');
      if (at > 0) {
        const len = /content-length: (\d+)/i.exec(text.slice(0, at))?.[1];
        if (len !== undefined && Buffer.byteLength(text.slice(at + 4)) >= Number(len)) finish(false);
      }
    });
    socket.on('close', () => finish(false));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      socketError = `socket ${err.code ?? err.message}`;
      finish(false);
    });
    const head = [
      `POST ${r.path} HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      ...Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`),
      `Content-Length: ${r.contentLength ?? r.body.length}`,
      '',
      '',
    ].join('\r\n');
    socket.write(Buffer.from(head, 'latin1'));
    socket.write(r.body, () => {
      if (r.abortAfterMs !== undefined) setTimeout(() => finish(false), r.abortAfterMs);
    });
  });
}

function dechunk(body: string, whole: string): string {
  if (!/transfer-encoding: chunked/i.test(whole.slice(0, whole.indexOf('\r\n\r\n')))) return body;
  let out = '';
  let rest = body;
  for (;;) {
    const nl = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, nl), 16);
    if (!size) return out;
    out += rest.slice(nl + 2, nl + 2 + size);
    rest = rest.slice(nl + 2 + size + 2);
  }
}
