import { request as httpRequest } from 'node:http';

export interface Res {
  status: number;
  headers: Record<string, string>;
  /** header names exactly as sent, in order */
  rawHeaderNames: string[];
  text: string;
  buf: Buffer;
  json: any;
}

export interface ReqOpts {
  method?: string;
  headers?: Record<string, string>;
  token?: string;
  body?: string | Buffer;
  json?: unknown;
  form?: string;
}

/** Real HTTP request with the path sent exactly as given (no normalisation). */
export function req(baseUrl: string, path: string, opts: ReqOpts = {}): Promise<Res> {
  const u = new URL(baseUrl);
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers['PRIVATE-TOKEN'] = opts.token;
  let body: string | Buffer | undefined = opts.body;
  if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['Content-Type'] = 'application/json';
  }
  if (opts.form !== undefined) {
    body = opts.form;
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  }
  if (body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(body));
  return new Promise((resolve, reject) => {
    const r = httpRequest({ host: u.hostname, port: u.port, method: opts.method ?? 'GET', path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const buf = Buffer.concat(chunks);
        const text = buf.toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        const hs: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) hs[k] = Array.isArray(v) ? v.join(', ') : v;
        const names: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) names.push(res.rawHeaders[i]!);
        resolve({ status: res.statusCode ?? 0, headers: hs, rawHeaderNames: names, text, buf, json });
      });
      res.on('error', reject);
    });
    r.on('error', reject);
    if (body !== undefined) r.write(body);
    r.end();
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Poll until `fn` returns a truthy value (or throw after `ms`). */
export async function waitFor<T>(fn: () => Promise<T> | T, ms = 10_000, every = 10): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('condition not reached in time');
    await sleep(every);
  }
}

export function parseLink(link: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!link) return out;
  for (const part of link.split(', ')) {
    const m = /^<([^>]+)>; rel="([a-z]+)"$/.exec(part);
    if (!m) throw new Error(`malformed Link part: ${part}`);
    out[m[2]!] = m[1]!;
  }
  return out;
}

/** Path + query of an absolute URL, as sent on the wire. */
export function pathOf(url: string): string {
  const u = new URL(url);
  return u.pathname + u.search;
}
