import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { jsonText, renderRecord, tsvField, tsvLine } from '../../src/output/format.js';
import { terminalSafe, tsvEscape } from '../../src/output/terminal-safe.js';

const plain = new Chalk({ level: 0 });

describe('terminalSafe', () => {
  it('shows ESC sequences, OSC 52 clipboard writes and OSC 8 links as visible escapes', () => {
    expect(terminalSafe('name\x1b[2Jx')).toBe('name\\e[2Jx');
    expect(terminalSafe('\x1b]52;c;ZXZpbA==\x07')).toBe('\\e]52;c;ZXZpbA==\\x07');
    expect(terminalSafe('\x1b]8;;http://evil.test/\x1b\\click\x1b]8;;\x1b\\')).toBe('\\e]8;;http://evil.test/\\e\\click\\e]8;;\\e\\');
  });

  it('escapes every C0 control, DEL and C1, CR included, as \\xHH or its name', () => {
    expect(terminalSafe('a\rb')).toBe('a\\rb');
    expect(terminalSafe('\x00\x07\x08\x0b\x0c\x1f')).toBe('\\x00\\x07\\x08\\x0b\\x0c\\x1f');
    expect(terminalSafe('\x7f\u0080\u0085\u009b2J\u009f')).toBe('\\x7f\\x80\\x85\\x9b2J\\x9f');
    expect(terminalSafe('a\tb\nc')).toBe('a\\tb\\nc');
  });

  it('keeps tab and newline in multi-line text, still escaping CR and ESC', () => {
    expect(terminalSafe('a\tb\nc\r\n\x1b[31m', { multiline: true })).toBe('a\tb\nc\\r\n\\e[31m');
  });

  it('doubles only a backslash that would read as an escape, so each form reads one way', () => {
    expect(terminalSafe('C:\\Users\\me')).toBe('C:\\Users\\me');
    expect(terminalSafe('a\\nb')).toBe('a\\\\nb');
    expect(terminalSafe('\\e[2J')).toBe('\\\\e[2J');
    expect(terminalSafe('\\x1b')).toBe('\\\\x1b');
    expect(terminalSafe('\\\\')).toBe('\\\\\\');
    expect(terminalSafe('end\\')).toBe('end\\');
  });

  it('doubles a backslash before a control character, so a backslash then ESC never reads as a backslash then e', () => {
    expect(terminalSafe('\\\x1b[2J')).toBe('\\\\\\e[2J');
    expect(terminalSafe('\\e[2J')).toBe('\\\\e[2J');
    expect(terminalSafe('a\\\rb')).toBe('a\\\\\\rb');
    expect(terminalSafe('a\\\u009b')).toBe('a\\\\\\x9b');
    expect(terminalSafe('make \\\n  all\\\t', { multiline: true })).toBe('make \\\n  all\\\t');
    expect(terminalSafe('make \\\n')).toBe('make \\\\\\n');
  });

  it('shows the bidirectional controls as \\uHHHH, so no override reorders what follows on the line', () => {
    expect(terminalSafe('report\u202Etxt.exe')).toBe('report\\u202etxt.exe');
    expect(terminalSafe('\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069')).toBe(
      '\\u061c\\u200e\\u200f\\u202a\\u202b\\u202c\\u202d\\u2066\\u2067\\u2068\\u2069',
    );
    expect(terminalSafe('C:\\users\\u202e')).toBe('C:\\\\users\\\\u202e');
    expect(terminalSafe('עברית\u200dx')).toBe('עברית\u200dx');
  });

  it('leaves printable text alone, wide characters and emoji included', () => {
    const text = 'café – 日本語 ✓ 🎉 naïve';
    expect(terminalSafe(text)).toBe(text);
  });
});

describe('TSV escaping', () => {
  it('doubles every backslash and escapes tab, CR, LF and the other control characters', () => {
    expect(tsvEscape('a\tb\nc\\d\re\x1b[2J\x7f\u009b\x00')).toBe('a\\tb\\nc\\\\d\\re\\e[2J\\x7f\\x9b\\x00');
    expect(tsvField('C:\\Users')).toBe('C:\\\\Users');
    expect(tsvLine(['x\x1b]52;c;AA==\x07', 7, null])).toBe('x\\e]52;c;AA==\\x07\t7\t\n');
    expect(tsvField('exe.\u202etxt')).toBe('exe.\\u202etxt');
  });
});

describe('JSON', () => {
  it('stays exact JSON and writes DEL and C1 as \\u escapes, as JSON.stringify does C0', () => {
    const record = { name: 'a\x1b[2J\u009b\x7fz', id: 1 };
    const text = jsonText(record, false);
    expect(text).toBe('{"name":"a\\u001b[2J\\u009b\\u007fz","id":1}');
    expect(JSON.parse(text)).toEqual(record);
    expect(jsonText(['\u0085'], true)).toBe('[\n  "\\u0085"\n]');
    expect(jsonText({ name: 'a\u202eb\u2066' }, false)).toBe('{"name":"a\\u202eb\\u2066"}');
  });
});

describe('key/value records', () => {
  it('escape control characters in values and names, one line per field', () => {
    const record = { name: 'evil\x1b[2J\r\nline', description: 'tab\there', 'we\x1bird': 'x' };
    expect(renderRecord(record, ['name', 'description', 'we\x1bird'], plain)).toBe(
      'name         evil\\e[2J\\r\\nline\n' + 'description  tab\\there\n' + 'we\\eird      x\n',
    );
  });
});
