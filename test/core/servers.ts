import { execFileSync } from 'node:child_process';
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface TestServer {
  url: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

type Handler = (req: SeenRequest, res: ServerResponse, index: number) => void;

function track(server: Server): () => Promise<void> {
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
}

function listen(server: Server, host: string): Promise<number> {
  return new Promise((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
}

function recording(seen: SeenRequest[], handler: Handler) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      seen.push(entry);
      handler(entry, res, seen.length - 1);
    });
  };
}

/** A scripted HTTP server on loopback that records every request it gets. */
export async function startServer(handler: Handler, host = '127.0.0.1'): Promise<TestServer> {
  const seen: SeenRequest[] = [];
  const server = createServer(recording(seen, handler));
  const close = track(server);
  const port = await listen(server, host);
  return { url: `http://${host}:${port}`, seen, close };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A self-signed certificate for 127.0.0.1, made with openssl. */
export function selfSignedCert(dir: string): { key: string; cert: string; certFile: string } {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

export async function startTlsServer(tls: { key: string; cert: string }, handler: Handler): Promise<TestServer> {
  const seen: SeenRequest[] = [];
  const server = createTlsServer(tls, recording(seen, handler));
  const close = track(server);
  const port = await listen(server, '127.0.0.1');
  return { url: `https://127.0.0.1:${port}`, seen, close };
}

/**
 * A forward proxy on loopback: CONNECT tunnels and absolute-form requests both go to `target`
 * whatever host the client named, and each is recorded as "CONNECT host:port" or "GET http://…".
 */
export async function startProxy(target: string): Promise<TestServer> {
  const seen: SeenRequest[] = [];
  const to = new URL(target);
  const server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' });
    const asked = new URL(req.url ?? '/');
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: `${asked.pathname}${asked.search}`, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    seen.push({ method: 'CONNECT', url: req.url ?? '', headers: req.headers, body: '' });
    const upstream = connect(Number(to.port), to.hostname, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  const close = track(server);
  const port = await listen(server, '127.0.0.1');
  return { url: `http://127.0.0.1:${port}`, seen, close };
}
