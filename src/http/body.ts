import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { ExitCode, SvcError } from '../errors.js';
import { REDIRECT_STATUSES } from './redirect-policy.js';
import type { ReadResult } from './transport.js';
import type { ApiRequest } from './types.js';
import { JsonTooDeepError, MAX_JSON_DEPTH, parseJson, parseJsonBytes } from '../json.js';

/** Bytes as a person reads them: `64 MiB`, `1.5 KiB`, `300 bytes`. */
export function formatSize(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

/**
 * Reads a whole body, failing as soon as it passes `maxBytes` (or declares more in Content-Length)
 * rather than buffering it first. `where` names the request in the message (`GET /projects`).
 */
export async function readLimited(
  body: AsyncIterable<Buffer> & { destroy(): unknown; on(event: 'error', listener: () => void): unknown },
  declaredLength: string | undefined,
  maxBytes: number,
  where: string,
): Promise<Buffer> {
  const tooLarge = () => {
    // Stops the transfer; the abort this causes is the intended end, not an error to report.
    body.on('error', () => {});
    body.destroy();
    return new SvcError(`${where} returned more than ${formatSize(maxBytes)}, the limit for one answer held in memory`, ExitCode.failure);
  };
  if (declaredLength !== undefined && Number(declaredLength) > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    total += chunk.length;
    if (total > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, total);
}

/** True when arrays and objects nest deeper than `limit`; scans the bytes (structural characters are ASCII). */
export function nestsDeeperThan(bytes: Buffer, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return false;
}

/**
 * A success body that must be JSON; anything else is one line naming what arrived instead. The
 * depth is checked on the parsed value (JSON.parse does not recurse), which costs far less than a
 * scan of every byte of every page; the bytes are scanned only when parsing failed.
 */
export function parseJsonBody(bytes: Buffer, where: string, contentType: string | undefined): unknown {
  if (bytes.length === 0) return undefined;
  const tooDeep = () => new SvcError(`${where} returned JSON nested deeper than ${MAX_JSON_DEPTH} levels`, ExitCode.failure);
  try {
    return parseJsonBytes(bytes);
  } catch (error) {
    if (error instanceof JsonTooDeepError || nestsDeeperThan(bytes, MAX_JSON_DEPTH)) throw tooDeep();
    const type = contentType ?? 'no content type';
    const what = /json/i.test(type)
      ? 'a truncated or malformed JSON body'
      : `${type.split(';')[0]} instead of JSON${/html/i.test(type) ? ' (an HTML page, probably from a proxy)' : ''}`;
    throw new SvcError(`${where} returned ${what}`, ExitCode.failure);
  }
}

/** An error body: JSON when it parses (and nests sanely), else its text. */
export function parseErrorBody(bytes: Buffer): { text: string; body: unknown } {
  const text = bytes.toString('utf8');
  if (!text) return { text, body: undefined };
  try {
    return { text, body: parseJson(text) };
  } catch {
    return { text, body: text };
  }
}

/** What one attempt's answer amounted to, its body read as far as the request needs. */
export type Answer =
  { kind: 'redirect'; location: string } | { kind: 'error'; text: string; body: unknown } | { kind: 'data'; data: unknown };

export interface ReadOptions {
  method: string;
  responseType: NonNullable<ApiRequest['responseType']>;
  acceptStatus?: (status: number) => boolean;
  /** The request as messages name it: `GET /projects`. */
  where: string;
  maxBytes: number;
}

/** Reads nothing of a redirect, all of an error body, and the data in the form asked for. */
export async function readAnswer(res: Dispatcher.ResponseData, options: ReadOptions): Promise<ReadResult<Answer>> {
  const { statusCode: status, headers } = res;
  const declared = headers['content-length'] as string | undefined;
  const read = () => readLimited(res.body, declared, options.maxBytes, options.where);
  if (REDIRECT_STATUSES.has(status) && typeof headers.location === 'string') {
    await res.body.dump();
    return { value: { kind: 'redirect', location: headers.location } };
  }
  if (status >= 400 && !(options.acceptStatus?.(status) ?? false)) {
    return { value: { kind: 'error', ...parseErrorBody(await read()) } };
  }
  const type = options.responseType;
  if (options.method === 'HEAD' || status === 204 || status === 304) {
    // These answers have no body, whatever the server claims: anything sent is discarded.
    await res.body.dump();
    return { value: { kind: 'data', data: emptyBody(type) } };
  }
  if (type === 'stream') return { value: { kind: 'data', data: res.body }, open: res.body };
  if (type === 'none') {
    await res.body.dump();
    return { value: { kind: 'data', data: undefined } };
  }
  const bytes = await read();
  if (type === 'buffer') return { value: { kind: 'data', data: bytes } };
  if (type === 'text') return { value: { kind: 'data', data: bytes.toString('utf8') } };
  return { value: { kind: 'data', data: parseJsonBody(bytes, options.where, headers['content-type'] as string | undefined) } };
}

function emptyBody(type: ReadOptions['responseType']): unknown {
  if (type === 'stream') return Readable.from([]);
  if (type === 'buffer') return Buffer.alloc(0);
  if (type === 'text') return '';
  return undefined;
}
