import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A node:http server on 127.0.0.1:0 that passes requests on to `target`, except those `hangs`
 * picks: they get no answer at all, as from a server that stopped responding mid-run.
 */
export async function startHangProxy(target: string, hangs: (req: IncomingMessage) => boolean) {
  const upstream = new URL(target);
  let hung = 0;
  let origin = '';
  const server = createServer((req, res) => {
    if (hangs(req)) {
      hung++;
      return;
    }
    const forward = request(
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
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    hung: () => hung,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
