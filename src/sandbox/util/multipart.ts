import { DecodeError } from './query.js';

export interface FilePart {
  filename: string;
  contentType: string;
  data: Buffer;
}

export function multipartBoundary(contentType: string): string | null {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

/** Parse a multipart body; throws DecodeError on malformed input. */
export function parseMultipart(buf: Buffer, boundary: string): { fields: Array<[string, string]>; files: Record<string, FilePart> } {
  const fields: Array<[string, string]> = [];
  const files: Record<string, FilePart> = {};
  const delim = Buffer.from(`--${boundary}`);
  let pos = buf.indexOf(delim);
  if (pos < 0) throw new DecodeError('multipart body without its boundary');
  for (;;) {
    pos += delim.length;
    if (buf[pos] === 0x2d && buf[pos + 1] === 0x2d) break; // closing "--"
    if (buf[pos] === 0x0d && buf[pos + 1] === 0x0a) pos += 2;
    const headEnd = buf.indexOf('\r\n\r\n', pos);
    if (headEnd < 0) throw new DecodeError('multipart part without headers');
    const head = buf.subarray(pos, headEnd).toString('utf8');
    const next = buf.indexOf(Buffer.from(`\r\n--${boundary}`), headEnd + 4);
    if (next < 0) throw new DecodeError('multipart body is truncated');
    const data = buf.subarray(headEnd + 4, next);
    const disp = /content-disposition:([^\r\n]*)/i.exec(head)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disp)?.[1];
    const filename = /\bfilename="([^"]*)"/i.exec(disp)?.[1];
    const ctype = /content-type:\s*([^\r\n]*)/i.exec(head)?.[1]?.trim() ?? 'application/octet-stream';
    if (name !== undefined) {
      if (filename !== undefined) files[name] = { filename, contentType: ctype, data: Buffer.from(data) };
      else fields.push([name, data.toString('utf8')]);
    }
    pos = next + 2;
  }
  return { fields, files };
}
