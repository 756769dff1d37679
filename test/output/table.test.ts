import { PassThrough } from 'node:stream';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { tableCells } from '../../src/output/columns.js';
import { planTable, renderTable, renderTableRows, terminalColumnsOf } from '../../src/output/table.js';

const plain = new Chalk({ level: 0 });

describe('terminal tables', () => {
  it('align columns two spaces apart and leave the last one unpadded', () => {
    expect(
      renderTable(
        [
          { id: 1, name: 'a' },
          { id: 22, name: 'bb' },
        ],
        ['id', 'name'],
        plain,
        80,
      ),
    ).toBe('id  name\n1   a\n22  bb\n');
  });

  it('fit the width by cutting values with an ellipsis, never a column name', () => {
    const record = { id: 1, path: 'group/a-very-long-project-name', visibility: 'private' };
    expect(renderTable([record], ['id', 'path', 'visibility'], plain, 20)).toBe('id  path  visibility\n1   gro…  private\n');
  });

  describe('give up the least useful text first', () => {
    const record = {
      id: 7,
      title: 'Fix the login page for users',
      sha: '0123456789abcdef0123456789abcdef01234567',
      created_at: '2026-11-27T14:27:09.123Z',
      description: 'Sessions expired early after a deploy',
    };
    const columns = ['id', 'title', 'sha', 'created_at', 'description'];
    const lines = (width: number) => renderTable([record], columns, plain, width).split('\n');

    it('timestamps to the minute, then to the date', () => {
      expect(lines(135)[1]).toBe(
        '7   Fix the login page for users  0123456789abcdef0123456789abcdef01234567  2026-11-27 14:27  Sessions expired early after a deploy',
      );
      expect(lines(125)[1]).toBe(
        '7   Fix the login page for users  0123456789abcdef0123456789abcdef01234567  2026-11-27  Sessions expired early after a deploy',
      );
    });

    it('then SHAs to 8 characters, then descriptions, and only then titles', () => {
      expect(lines(100)[1]).toBe('7   Fix the login page for users  01234567  2026-11-27  Sessions expired early after a deploy');
      expect(lines(80)).toEqual([
        'id  title                         sha       created_at  description',
        '7   Fix the login page for users  01234567  2026-11-27  Sessions expired early …',
        '',
      ]);
      expect(lines(60)).toEqual([
        'id  title                  sha       created_at  description',
        '7   Fix the login page f…  01234567  2026-11-27  Sessions e…',
        '',
      ]);
    });

    it('leave out a column rather than cut a name, descriptions first', () => {
      const chosen = columns.map((field) => ({ field }));
      const layout = planTable(chosen, [tableCells(record, chosen)], 40);
      expect([layout.header, layout.widths, layout.dropped]).toEqual([
        ['id', 'title', 'sha', 'created_at'],
        [2, 14, 8, 10],
        ['description'],
      ]);
      expect(lines(40)).toEqual(['id  title           sha       created_at', '7   Fix the login…  01234567  2026-11-27', '']);
    });
  });

  it('leave out the rightmost counts of a summary rather than cut `in_flight` or the kind that names each row', () => {
    const summary = {
      kind: 'projects',
      total: 60,
      finished: 52,
      cleanup_failed: 1,
      failed: 2,
      in_flight: 3,
      still_on_source: 2,
      retries: 4,
      duration: '1m 20s',
    };
    const columns = Object.keys(summary).map((field) => ({ field }));
    expect(planTable(columns, [tableCells(summary, columns)], 80).dropped).toEqual(['retries', 'duration']);
    expect(renderTable([summary], Object.keys(summary), plain, 80)).toBe(
      'kind      total  finished  cleanup_failed  failed  in_flight  still_on_source\n' +
        'projects  60     52        1               2       3          2\n',
    );
  });

  it('count wide characters as two columns when cutting', () => {
    expect(renderTable([{ id: 1, name: '日本語のプロジェクト' }], ['id', 'name'], plain, 12)).toBe('id  name\n1   日本語…\n');
  });

  it('keep the widths of the first rows for later ones: text is cut, a number is kept whole while the line has room', () => {
    const columns = [{ field: 'id' }, { field: 'name' }];
    const layout = planTable(columns, [['7', 'a']], 80);
    expect(
      renderTableRows(layout, [
        ['12345', 'a long name'],
        ['abcdef', 'x'],
      ]),
    ).toBe('12345  a long name\na…  x\n');
    const narrow = planTable(columns, [['7', 'a']], 8);
    expect(renderTableRows(narrow, [['1234567890', 'x']])).toBe('1…  x\n');
  });

  it('show control characters in cells as escapes', () => {
    expect(renderTable([{ name: 'a\x1b[2Jb\r' }], ['name'], plain, 80)).toBe('name\na\\e[2Jb\\r\n');
  });

  it('print the header in bold only when the chalk instance has colour', () => {
    expect(renderTable([{ id: 1 }], ['id'], new Chalk({ level: 1 }), 80)).toBe('\x1b[1mid\x1b[22m\n1\n');
    expect(renderTable([{ id: 1 }], ['id'], plain, 80)).toBe('id\n1\n');
  });

  it("take the width from the stream's columns, 80 when it has none", () => {
    const terminal = Object.assign(new PassThrough(), { columns: 132 });
    expect(terminalColumnsOf(terminal)).toBe(132);
    expect(terminalColumnsOf(new PassThrough())).toBe(80);
    expect(terminalColumnsOf(Object.assign(new PassThrough(), { columns: 0 }))).toBe(80);
  });
});
