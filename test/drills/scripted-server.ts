import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse, ctx: { base: string; other: string }) => void;

/**
 * One node:http server on 127.0.0.1:0 answering many scripted cases at once: each case gets its
 * own path prefix (`/<case>/api/v4/...`), used as the instance URL, and counts the requests it got.
 * `other` is the same server under another origin (localhost instead of 127.0.0.1).
 */
export async function startScriptedServer() {
  const handlers = new Map<string, Handler>();
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const prefix = (req.url ?? '/').split('/')[1] ?? '';
    hits.set(prefix, (hits.get(prefix) ?? 0) + 1);
    const handler = handlers.get(prefix);
    if (!handler) {
      res.writeHead(599, { 'content-type': 'text/plain' }).end('no handler');
      return;
    }
    handler(req, res, { base: `${origin}/${prefix}`, other: `http://localhost:${port}/${prefix}` });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    /** Registers a case and returns its instance URL. */
    add(name: string, handler: Handler): string {
      handlers.set(name, handler);
      return `${origin}/${name}`;
    },
    hits: (name: string) => hits.get(name) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };
}

export function text(status: number, contentType: string | undefined, body: string, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { ...(contentType ? { 'content-type': contentType } : {}), ...headers }).end(body);
  };
}

export const PROXY_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

/** `n` project-like records starting at id `from`. */
export function projects(from: number, n: number): Array<{ id: number; path_with_namespace: string }> {
  return Array.from({ length: n }, (_, i) => ({ id: from + i, path_with_namespace: `group/project-${from + i}` }));
}
