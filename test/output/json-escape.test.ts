import { describe, expect, it } from 'vitest';
import { isPlainAscii, parseJsonBytes } from '../../src/json.js';
import { jsonText, ndjsonLines } from '../../src/output/format.js';

// The escaping takes a shortcut for ASCII pages (no C1 character can be there); each branch is
// exercised on its own here: ASCII with and without DEL, non-ASCII with and without C1.
describe('DEL and C1 in JSON output', () => {
  it('leaves a clean ASCII page as JSON.stringify wrote it', () => {
    expect(ndjsonLines([{ id: 1, name: 'plain' }, { id: 2 }])).toBe('{"id":1,"name":"plain"}\n{"id":2}\n');
  });

  it('escapes DEL in an otherwise ASCII page', () => {
    expect(ndjsonLines([{ name: 'a\x7fb' }, { name: 'c' }])).toBe('{"name":"a\\u007fb"}\n{"name":"c"}\n');
  });

  it('escapes C1 controls in a page that also holds other non-ASCII text', () => {
    expect(ndjsonLines([{ name: 'café \u009b2J' }])).toBe('{"name":"café \\u009b2J"}\n');
    expect(jsonText({ name: 'x\u0080\u009fy\x7f' }, false)).toBe('{"name":"x\\u0080\\u009fy\\u007f"}');
  });

  it('leaves non-ASCII text without controls as it is', () => {
    expect(ndjsonLines([{ name: 'Ünïcödé ✓ 漢字 😀' }])).toBe('{"name":"Ünïcödé ✓ 漢字 😀"}\n');
  });
});

// A page's bytes decide whether its printed JSON is searched at all: only ASCII without DEL or a
// \u escape is passed as it is.
describe('pages whose bytes rule out DEL and C1', () => {
  const printed = (body: string) => {
    const page = parseJsonBytes(Buffer.from(body)) as unknown[];
    return ndjsonLines(page, isPlainAscii(page));
  };

  it('vouches for an ASCII page and prints it as JSON.stringify wrote it', () => {
    // A backslash before a u is taken for an escape: the page is searched, needlessly but safely.
    expect(isPlainAscii(parseJsonBytes(Buffer.from('[{"path":"C:\\\\users"}]')))).toBe(false);
    expect(printed('[{"path":"C:\\\\users"}]')).toBe('{"path":"C:\\\\users"}\n');
    expect(isPlainAscii(parseJsonBytes(Buffer.from('[{"id":1,"name":"plain"}]')))).toBe(true);
    expect(printed('[{"id":1,"name":"plain"}]')).toBe('{"id":1,"name":"plain"}\n');
  });

  it('still escapes C1 and DEL that arrive as \\u escapes, raw bytes or UTF-8', () => {
    expect(printed('[{"name":"a\\u009b2J\\u007F"}]')).toBe('{"name":"a\\u009b2J\\u007f"}\n');
    expect(printed('[{"name":"a\x7fb"}]')).toBe('{"name":"a\\u007fb"}\n');
    expect(printed('[{"name":"caf\u00e9 \u0085"}]')).toBe('{"name":"café \\u0085"}\n');
  });

  it('vouches for no value it did not parse', () => {
    expect(isPlainAscii([{ name: 'a\u009b' }])).toBe(false);
    expect(isPlainAscii('text')).toBe(false);
  });
});
