// Reading and decoding request bodies: JSON, multipart, or form (Rack treats
// a body without a content type as a form).
import type { IncomingMessage } from 'node:http';
import type { Ctx } from './context.js';
import { ApiError } from './errors.js';
import { multipartBoundary, parseMultipart } from '../util/multipart.js';
import { DecodeError, nestParams, parseQuery } from '../util/query.js';

/** Largest request body accepted; larger ones get 413. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        failed = true;
        reject(new ApiError(413, { message: '413 Request Entity Too Large' }));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) reject(e);
    });
  });
}

export function parseBody(ctx: Ctx): void {
  const buf = ctx.bodyBuf;
  if (buf.length === 0) return;
  const ct = String(ctx.req.headers['content-type'] ?? '').toLowerCase();
  if (ct.includes('json')) {
    let v: unknown;
    try {
      v = JSON.parse(buf.toString('utf8'));
    } catch (e) {
      throw new ApiError(400, { error: `The request body is not valid JSON: ${(e as Error).message}` });
    }
    if (v && typeof v === 'object' && !Array.isArray(v)) ctx.body = v as Record<string, unknown>;
    else throw new ApiError(400, { error: 'The request body must be a JSON object' });
  } else if (ct.startsWith('multipart/form-data')) {
    const boundary = multipartBoundary(String(ctx.req.headers['content-type']));
    if (!boundary) throw new ApiError(400, { error: 'multipart body without a boundary' });
    try {
      const { fields, files } = parseMultipart(buf, boundary);
      ctx.body = nestParams(fields);
      ctx.files = files;
    } catch (e) {
      if (e instanceof DecodeError) throw new ApiError(400, { error: e.message });
      throw e;
    }
  } else if (ct.startsWith('application/octet-stream')) {
    // Raw bytes (a package upload): Rack parses no parameters from them; the route reads ctx.bodyBuf.
  } else {
    try {
      ctx.body = parseQuery(buf.toString('utf8')).params;
    } catch (e) {
      if (e instanceof DecodeError) throw new ApiError(400, { error: `Invalid request parameters: ${e.message}` });
      throw e;
    }
  }
}
