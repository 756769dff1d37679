import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { RequestBody } from '../http/client.js';

export interface MultipartFile {
  field: string;
  path: string;
  /** Size in bytes, read before the upload: the body is sent with a known Content-Length. */
  size: number;
  filename: string;
  contentType?: string;
}

/**
 * A multipart/form-data body whose file part streams from disk, so an archive of any size is
 * sent without being held in memory. `create` opens the file anew for every attempt.
 */
export function fileMultipart(fields: Array<[string, string]>, file: MultipartFile, onFileBytes?: (bytes: number) => void): RequestBody {
  const boundary = `svc-${randomBytes(12).toString('hex')}`;
  const fieldParts = fields.map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quoteName(name)}"\r\n\r\n${value}\r\n`,
  );
  const head = Buffer.from(
    `${fieldParts.join('')}--${boundary}\r\n` +
      `Content-Disposition: form-data; name="${quoteName(file.field)}"; filename="${quoteName(file.filename)}"\r\n` +
      `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + file.size + tail.length,
    create: () =>
      Readable.from(
        (async function* () {
          yield head;
          for await (const chunk of createReadStream(file.path)) {
            onFileBytes?.((chunk as Buffer).length);
            yield chunk as Buffer;
          }
          yield tail;
        })(),
        { objectMode: false },
      ),
  };
}

/** Browsers' rule for names in Content-Disposition: quotes and line breaks percent-encoded. */
function quoteName(name: string): string {
  return name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}
