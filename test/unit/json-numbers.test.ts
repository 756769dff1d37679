import { describe, expect, it } from 'vitest';
import { JsonTooDeepError, parseJson, stringifyJson } from '../../src/json.js';

// Every literal JSON.parse would change, wherever JSON allows a number to stand, comes out as sent.
describe('numbers JSON.parse would change', () => {
  const exact = [
    '9007199254740993',
    '[9007199254740993]',
    '{"id":9007199254740993}',
    '{"id": 9007199254740993}',
    '{"ids":[1,\n\t-9007199254740993]}',
    '{"ratio":0.12345678901234567891}',
    '{"score":1e400}',
    '{"score":-2.5E+400}',
    '[1, 1e-400]',
    '[2.5E-400, -0.5e-350]',
    '{"sha":"12345678901234567890","id":9007199254740993}',
    '{"path":"calm-forge-99999","score":1e400}',
    '{"ratio":12345678.123456789}',
    `[0.${'0'.repeat(330)}1]`,
    '{"a":[{"b":-9007199254740993}],"c":0.5}',
    '{"ratio":0.1000000000000000055511151231257827}',
    '[1.00000000000000000001]',
    '{"a":0.30000000000000001}',
    '[2, -0.5000000000000000001]',
    '{"b":0.12300000000000001}',
    '12345678901234567.0',
  ];
  for (const text of exact) {
    it(`keeps ${JSON.stringify(text)}`, () => {
      expect(stringifyJson(parseJson(text)).replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
    });
  }

  it('finds a long literal wherever it stands in the text', () => {
    for (let pad = 0; pad < 40; pad++) {
      const text = `{"pad":"${'x'.repeat(pad)}","n":1.0000000000000000000001}`;
      expect(stringifyJson(parseJson(text))).toBe(text);
    }
  });

  it('reads digits and exponents inside strings as the strings they are', () => {
    const text = '{"path":"calm-forge-99999","sha":"e1234567890123456789","note":"x:1e400"}';
    expect(parseJson(text)).toEqual({ path: 'calm-forge-99999', sha: 'e1234567890123456789', note: 'x:1e400' });
    expect(stringifyJson(parseJson(text))).toBe(text);
  });

  it('gives numbers a double holds as JSON.parse does, whatever strings hold', () => {
    const text = '{"id":9007199254740991,"ratio":0.1,"small":2.5e-7,"path":"calm-forge-19901","note":"x:1e-400"}';
    const parsed = parseJson(text);
    expect(parsed).toEqual(JSON.parse(text));
    expect(stringifyJson(parsed)).toBe(text);
  });

  it('refuses nesting past 512 levels, even where JSON.parse would take it', () => {
    expect(() => parseJson(`${'['.repeat(513)}${']'.repeat(513)}`)).toThrow(JsonTooDeepError);
    expect(parseJson(`${'['.repeat(512)}${']'.repeat(512)}`)).toBeInstanceOf(Array);
  });
});
