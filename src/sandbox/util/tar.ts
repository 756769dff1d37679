// A ustar archive as `git archive` writes one: a pax global header naming the commit, then every
// directory and file, owned by root, dated at the commit.

export interface TarEntry {
  /** a directory's name ends with `/` */
  name: string;
  data: Buffer;
  mode: number;
}

const BLOCK = 512;

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, '0') + '\0';
}

function header(name: string, size: number, mode: number, mtime: number, type: string): Buffer {
  const h = Buffer.alloc(BLOCK);
  const bytes = Buffer.from(name, 'utf8');
  // Names past the 100 bytes of `name` are split at a `/` into `prefix` (155 bytes) and `name`.
  let prefix = Buffer.alloc(0);
  let rest = bytes;
  if (bytes.length > 100) {
    const cut = name.lastIndexOf('/', name.length - 2);
    prefix = Buffer.from(name.slice(0, cut), 'utf8');
    rest = Buffer.from(name.slice(cut + 1), 'utf8');
  }
  rest.copy(h, 0, 0, 100);
  h.write(octal(mode, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(mtime, 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write(type, 156, 'ascii');
  h.write('ustar\u000000', 257, 'ascii');
  h.write('root', 265, 'ascii');
  h.write('root', 297, 'ascii');
  prefix.copy(h, 345, 0, 155);
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

function padded(data: Buffer): Buffer[] {
  const rest = data.length % BLOCK;
  return rest === 0 ? [data] : [data, Buffer.alloc(BLOCK - rest)];
}

/** A pax record: its own length in decimal, then `key=value` and a newline. */
function paxRecord(key: string, value: string): Buffer {
  const body = ` ${key}=${value}\n`;
  let length = body.length + 1;
  while (String(length).length + body.length !== length) length = String(length).length + body.length;
  return Buffer.from(`${length}${body}`, 'utf8');
}

export function buildTar(entries: TarEntry[], commit: string, mtime: number): Buffer {
  const pax = paxRecord('comment', commit);
  const parts: Buffer[] = [header('pax_global_header', pax.length, 0o666, mtime, 'g'), ...padded(pax)];
  for (const e of entries) {
    const directory = e.name.endsWith('/');
    parts.push(header(e.name, directory ? 0 : e.data.length, e.mode, mtime, directory ? '5' : '0'));
    if (!directory) parts.push(...padded(e.data));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}
