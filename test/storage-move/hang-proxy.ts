import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What a proxy does with a request before passing it on: `'hang'` never answers it (a server that
 * stopped responding mid-run); a promise holds it until settled (the test changes the world first).
 */
export type Intercept = (req: IncomingMessage) => 'hang' | Promise<void> | undefined;

/** A node:http server on 127.0.0.1:0 that passes requests on to `target`, after `intercept`. */
export async function startProxy(target: string, intercept: Intercept) {
  const upstream = new URL(target);
  let origin = '';
  const forward = (req: IncomingMessage, res: ServerResponse) => {
    const onward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        // Page links name the sandbox's origin; the client follows only links to the origin it talks to.
        const link = String(answer.headers.link ?? '')
          .split(upstream.origin)
          .join(origin);
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, ...(link ? { link } : {}) });
        answer.pipe(res);
      },
    );
    onward.on('error', () => res.destroy());
    req.pipe(onward);
  };
  const server = createServer((req, res) => {
    const held = intercept(req);
    if (held === 'hang') return;
    if (held === undefined) return forward(req, res);
    void held.then(
      () => forward(req, res),
      () => res.destroy(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A proxy to `target` that never answers the requests `hangs` picks. */
export async function startHangProxy(target: string, hangs: (req: IncomingMessage) => boolean) {
  let hung = 0;
  const proxy = await startProxy(target, (req) => {
    if (!hangs(req)) return undefined;
    hung++;
    return 'hang';
  });
  return { ...proxy, hung: () => hung };
}
