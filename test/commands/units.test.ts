import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fileMultipart } from '../../src/api/multipart.js';
import { ACTIVE_PIPELINE_STATUSES } from '../../src/workflows/pipelines/tree.js';
import { columnsFor } from '../../src/commands/projects/list.js';
import { parseAssignment } from '../../src/commands/shared/assignment.js';
import { formatBytes, formatProgress } from '../../src/commands/shared/progress.js';
import { resubmitCommand } from '../../src/commands/snippets/create.js';
import { shellQuote } from '../../src/workflows/shared/shell.js';
import { UsageError } from '../../src/errors.js';
import { tempDir } from '../support/harness.js';

describe('parseAssignment', () => {
  it('splits at the first = and keeps empty values', () => {
    expect(parseAssignment('--var', 'A=b=c')).toEqual(['A', 'b=c']);
    expect(parseAssignment('--var', 'A=')).toEqual(['A', '']);
    expect(() => parseAssignment('--var', 'A')).toThrow(UsageError);
    expect(() => parseAssignment('--var-file', '=x', 'PATH')).toThrow("--var-file '=x': expected KEY=PATH");
  });
});

describe('progress formatting', () => {
  it('formats sizes and a bar', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(300 * 1024 * 1024)).toBe('300 MiB');
    expect(formatProgress('up', 512, 1024)).toBe(`up [${'#'.repeat(12)}${'.'.repeat(12)}] 50% 512 B of 1.0 KiB`);
    expect(formatProgress('down', 2048, undefined)).toBe('down 2.0 KiB');
  });
});

describe('snippet resubmission', () => {
  it('quotes for a POSIX shell', () => {
    expect(shellQuote('plain-word.txt')).toBe('plain-word.txt');
    expect(shellQuote("it's here")).toBe(`'it'\\''s here'`);
    expect(shellQuote('$HOME')).toBe(`'$HOME'`);
  });

  it('rebuilds the command with the CAPTCHA flags', () => {
    expect(resubmitCommand({ title: 'a b', fileName: 'f.txt', contentFile: 'c.txt' }, 7)).toBe(
      "svc snippets create --title 'a b' --file-name f.txt --content-file c.txt --captcha-response RESPONSE --spam-log-id 7",
    );
  });
});

describe('projects list columns', () => {
  it('adds repository_storage when records carry it or --storage is given', () => {
    const base = { id: 1, name: 'a', path: 'a', path_with_namespace: 'g/a' };
    expect(columnsFor(base, undefined)).not.toContain('repository_storage');
    expect(columnsFor({ ...base, repository_storage: 'default' }, undefined)).toContain('repository_storage');
    expect(columnsFor(undefined, 'default')).toContain('repository_storage');
  });
});

describe('pipeline statuses', () => {
  it('keeps waiting only on statuses that move on by themselves', () => {
    for (const status of ['created', 'pending', 'running', 'scheduled', 'waiting_for_resource', 'preparing'])
      expect(ACTIVE_PIPELINE_STATUSES.has(status)).toBe(true);
    for (const status of ['success', 'failed', 'canceled', 'skipped', 'manual']) expect(ACTIVE_PIPELINE_STATUSES.has(status)).toBe(false);
  });
});

describe('fileMultipart', () => {
  it('streams fields and the file with the announced length, afresh for each attempt', async () => {
    const path = join(tempDir(), 'archive.tgz');
    const content = Buffer.alloc(100_000, 7);
    writeFileSync(path, content);
    let counted = 0;
    const body = fileMultipart(
      [
        ['path', 'p'],
        ['override_params[name]', 'Ünï "x"'],
      ],
      { field: 'file', path, size: content.length, filename: 'a"b.tgz' },
      (n) => {
        counted += n;
      },
    );
    const collect = async (stream: Readable) => {
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    };
    const first = await collect(body.create() as Readable);
    const second = await collect(body.create() as Readable);
    expect(first.length).toBe(body.length);
    expect(second.equals(first)).toBe(true);
    expect(counted).toBe(2 * content.length);
    const boundary = /boundary=(.+)$/.exec(body.contentType)![1];
    const text = first.toString('latin1');
    expect(text.startsWith(`--${boundary}\r\nContent-Disposition: form-data; name="path"\r\n\r\np\r\n`)).toBe(true);
    expect(first.toString('utf8')).toContain('name="override_params[name]"\r\n\r\nÜnï "x"\r\n');
    expect(text).toContain('name="file"; filename="a%22b.tgz"');
    expect(text.endsWith(`\r\n--${boundary}--\r\n`)).toBe(true);
  });
});
