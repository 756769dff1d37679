import { describe, expect, it } from 'vitest';
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
