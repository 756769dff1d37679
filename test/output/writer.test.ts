import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { writeList, writePages, writeRecord, type OutputSettings } from '../../src/output/writer.js';

/** Keeps every write as it came, to see how output is grouped. */
class RecordingStream extends Writable {
  readonly writes: string[] = [];
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.writes.push(chunk.toString('utf8'));
    done();
  }
}

const plain = new Chalk({ level: 0 });
const settings = (format: OutputSettings['format'], extra: Partial<OutputSettings> = {}): OutputSettings => ({
  format,
  stdoutIsTTY: false,
  chalk: plain,
  ...extra,
});

const PAGES = [
  [
    { id: 1, name: 'a' },
    { id: 2, name: 'b' },
  ],
  [{ id: 3, name: 'c\x1b[2J' }],
];

/** The pages with a real wait between them, as a listing's next request makes. */
async function* pages(failAfterFirst = false): AsyncGenerator<unknown[]> {
  yield PAGES[0];
  await sleep(5);
  if (failAfterFirst) throw new Error('connection reset');
  yield PAGES[1];
}

async function* records(failAfterFirst = false): AsyncGenerator<unknown> {
  for await (const page of pages(failAfterFirst)) yield* page;
}

describe('writePages', () => {
  it('writes each page of ndjson in one write', async () => {
    const out = new RecordingStream();
    expect(await writePages(out, settings('ndjson'), pages(), ['id'])).toEqual({ count: 3 });
    expect(out.writes).toEqual(['{"id":1,"name":"a"}\n{"id":2,"name":"b"}\n', '{"id":3,"name":"c\\u001b[2J"}\n']);
  });

  it('writes the TSV header with the first page, and alone for an empty listing', async () => {
    const out = new RecordingStream();
    await writePages(out, settings('tsv'), pages(), ['id', 'name']);
    expect(out.writes).toEqual(['id\tname\n1\ta\n2\tb\n', '3\tc\\e[2J\n']);
    const empty = new RecordingStream();
    expect(await writePages(empty, settings('tsv'), (async function* () {})(), ['id', 'name'])).toEqual({ count: 0 });
    expect(empty.writes).toEqual(['id\tname\n']);
  });

  it('prints a terminal table page by page with the widths of the first page', async () => {
    const out = new RecordingStream();
    await writePages(out, settings('table', { stdoutIsTTY: true, terminalColumns: 20 }), pages(), ['name', 'id']);
    expect(out.writes).toEqual(['name  id\na     1\nb     2\n', 'c\\e…  3\n']);
  });

  it('writes -o json once, complete, and nothing at all when a page fails', async () => {
    const out = new RecordingStream();
    await writePages(out, settings('json', { fields: ['id'] }), pages(), ['name']);
    expect(out.writes).toEqual(['[\n  {\n    "id": 1\n  },\n  {\n    "id": 2\n  },\n  {\n    "id": 3\n  }\n]\n']);
    const failed = new RecordingStream();
    await expect(writePages(failed, settings('json'), pages(true), ['id'])).rejects.toThrow('connection reset');
    expect(failed.writes).toEqual([]);
  });
});

describe('DEL and C1 control characters in JSON output', () => {
  const hostile = [
    { id: 1, name: 'del\x7f end' },
    { id: 2, name: 'csi\u009b2J and \u0080\u009f' },
  ];
  const clean = [{ id: 3, name: 'caf\u00e9 \u00a0 ~' }];
  async function* twoPages(): AsyncGenerator<unknown[]> {
    yield clean;
    yield hostile;
  }

  it('are written as \\u escapes in -o ndjson, a clean page byte for byte as JSON.stringify writes it', async () => {
    const out = new RecordingStream();
    await writePages(out, settings('ndjson'), twoPages(), ['id']);
    expect(out.writes).toEqual([
      '{"id":3,"name":"caf\u00e9 \u00a0 ~"}\n',
      '{"id":1,"name":"del\\u007f end"}\n{"id":2,"name":"csi\\u009b2J and \\u0080\\u009f"}\n',
    ]);
  });

  it('are written as \\u escapes in -o json', async () => {
    const out = new RecordingStream();
    await writePages(out, settings('json'), twoPages(), ['id']);
    expect(out.writes).toEqual([
      '[\n  {\n    "id": 3,\n    "name": "caf\u00e9 \u00a0 ~"\n  },\n' +
        '  {\n    "id": 1,\n    "name": "del\\u007f end"\n  },\n' +
        '  {\n    "id": 2,\n    "name": "csi\\u009b2J and \\u0080\\u009f"\n  }\n]\n',
    ]);
  });
});

describe('writeList', () => {
  it('groups the records that arrive together (a page) into one write', async () => {
    const out = new RecordingStream();
    expect(await writeList(out, settings('ndjson'), records(), ['id'])).toEqual({ count: 3 });
    expect(out.writes).toEqual(['{"id":1,"name":"a"}\n{"id":2,"name":"b"}\n', '{"id":3,"name":"c\\u001b[2J"}\n']);
  });

  it('prints the records before a failure in TSV, and fails with its error', async () => {
    const out = new RecordingStream();
    await expect(writeList(out, settings('tsv'), records(true), ['id'])).rejects.toThrow('connection reset');
    expect(out.writes).toEqual(['id\n1\n2\n']);
  });

  async function* endless(onClose: () => void): AsyncGenerator<unknown> {
    try {
      for (let id = 1; ; id++) {
        yield { id };
        await sleep(1);
      }
    } finally {
      onClose();
    }
  }

  it('stops reading the records, quietly, once the reader went away (EPIPE), so a listing stops fetching', async () => {
    let closed = false;
    const gone = new Writable({ write: (_chunk, _encoding, done) => done(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })) });
    await expect(
      writeList(
        gone,
        settings('ndjson'),
        endless(() => (closed = true)),
        ['id'],
      ),
    ).resolves.toEqual({ count: 1 });
    expect(closed).toBe(true);
  });

  it('fails with one line and closes the record source when the output cannot be written (ENOSPC)', async () => {
    let closed = false;
    const full = new Writable({
      write: (_chunk, _encoding, done) => done(Object.assign(new Error('write ENOSPC'), { code: 'ENOSPC' })),
    });
    await expect(
      writeList(
        full,
        settings('ndjson'),
        endless(() => (closed = true)),
        ['id'],
      ),
    ).rejects.toThrow('cannot write the output: no space left on the device (ENOSPC)');
    expect(closed).toBe(true);
  });
});

describe('writeRecord', () => {
  it('prints one record as key/value lines on a terminal and as header and row in TSV', async () => {
    const record = { id: 5, name: 'x\ry' };
    const terminal = new RecordingStream();
    await writeRecord(terminal, settings('table', { stdoutIsTTY: true }), record, ['id', 'name']);
    expect(terminal.writes).toEqual(['id    5\nname  x\\ry\n']);
    const pipe = new RecordingStream();
    await writeRecord(pipe, settings('table'), record, ['id', 'name']);
    expect(pipe.writes).toEqual(['id\tname\n5\tx\\ry\n']);
    const json = new RecordingStream();
    await writeRecord(json, settings('json'), record, []);
    expect(json.writes).toEqual(['{\n  "id": 5,\n  "name": "x\\ry"\n}\n']);
  });
});
