import { describe, expect, it } from 'vitest';
import { parseJson, stringifyJson } from '../../src/json.js';

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
    '{"sha":"12345678901234567890","id":9007199254740993}',
    '{"path":"calm-forge-99999","score":1e400}',
  ];
  for (const text of exact) {
    it(`keeps ${JSON.stringify(text)}`, () => {
      expect(stringifyJson(parseJson(text)).replace(/\s/g, '')).toBe(text.replace(/\s/g, ''));
    });
  }

  it('reads digits and exponents inside strings as the strings they are', () => {
    const text = '{"path":"calm-forge-99999","sha":"e1234567890123456789","note":"x:1e400"}';
    expect(parseJson(text)).toEqual({ path: 'calm-forge-99999', sha: 'e1234567890123456789', note: 'x:1e400' });
    expect(stringifyJson(parseJson(text))).toBe(text);
  });
});
