import type { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream';
import { promisify } from 'node:util';
import { brotliDecompress, createBrotliDecompress, createGunzip, createInflate, gunzip, inflate } from 'node:zlib';
import { SvcError } from '../errors.js';
import type { ApiResponse, HttpClient } from '../http/client.js';
import { formatSize } from '../http/body.js';
import { apiPath } from '../http/encode.js';
import { DEFAULT_MAX_BODY_BYTES } from '../http/types.js';

/**
 * The job's artifact archive as a stream. The service answers with a redirect to object
 * storage; the HTTP layer follows it without sending credentials to that other origin.
 */
export function downloadJobArtifacts(http: HttpClient, project: string, jobId: string | number): Promise<ApiResponse<Readable>> {
  return http.request<Readable>({
    path: apiPath`/projects/${project}/jobs/${jobId}/artifacts`,
    responseType: 'stream',
  });
}

export function getJob(http: HttpClient, project: string, jobId: string | number): Promise<Record<string, unknown>> {
  return http.record<Record<string, unknown>>({ path: apiPath`/projects/${project}/jobs/${jobId}` });
}

// A trace may come compressed (object storage or a proxy in front of the service sets
// Content-Encoding whether asked or not); the log is what it decodes to.
// Decoded whole, a log may not hold more than it could have uncompressed.
const WHOLE = { maxOutputLength: DEFAULT_MAX_BODY_BYTES };
const DECODERS: Record<string, { whole: (bytes: Buffer) => Promise<Buffer>; stream: () => Transform }> = {
  gzip: { whole: (bytes) => promisify(gunzip)(bytes, WHOLE), stream: createGunzip },
  'x-gzip': { whole: (bytes) => promisify(gunzip)(bytes, WHOLE), stream: createGunzip },
  deflate: { whole: (bytes) => promisify(inflate)(bytes, WHOLE), stream: createInflate },
  br: { whole: (bytes) => promisify(brotliDecompress)(bytes, WHOLE), stream: createBrotliDecompress },
};

function decoderFor(res: ApiResponse<unknown>, where: string) {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === '' || encoding === 'identity') return undefined;
  const decoder = DECODERS[encoding];
  if (!decoder) throw new SvcError(`${where}: the log came with Content-Encoding ${encoding}, which svc cannot decode`);
  return decoder;
}

function undecodable(where: string, error: unknown): SvcError {
  if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE')
    return new SvcError(
      `${where}: the compressed log decodes to more than ${formatSize(DEFAULT_MAX_BODY_BYTES)}, the limit for one answer held in memory`,
    );
  return new SvcError(`${where}: the compressed log could not be decoded (${(error as Error).message})`);
}

function isDecodeError(error: unknown): boolean {
  return typeof (error as { code?: unknown }).code === 'string' && (error as { code: string }).code.startsWith('Z_');
}

/** The job's whole log so far (the service has no ranges); it grows while the job runs. */
export async function getJobLog(http: HttpClient, project: string, jobId: string | number): Promise<Buffer> {
  const path = apiPath`/projects/${project}/jobs/${jobId}/trace`;
  const res = await http.request<Buffer>({ path, responseType: 'buffer' });
  const decoder = decoderFor(res, `GET ${path}`);
  if (!decoder) return res.data;
  try {
    return await decoder.whole(res.data);
  } catch (error) {
    throw undecodable(`GET ${path}`, error);
  }
}

/** The job's log as it arrives, decoded. */
export async function* streamJobLog(http: HttpClient, project: string, jobId: string | number): AsyncGenerator<Buffer> {
  const path = apiPath`/projects/${project}/jobs/${jobId}/trace`;
  const res = await http.request<Readable>({ path, responseType: 'stream' });
  const decoder = decoderFor(res, `GET ${path}`);
  if (!decoder) {
    yield* res.data as AsyncIterable<Buffer>;
    return;
  }
  // pipeline ends the decoder with the body's error too, so a broken connection is not taken for a bad encoding.
  const decoded = pipeline(res.data, decoder.stream(), () => {});
  try {
    yield* decoded as AsyncIterable<Buffer>;
  } catch (error) {
    throw isDecodeError(error) ? undecodable(`GET ${path}`, error) : error;
  }
}
