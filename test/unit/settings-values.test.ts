import { describe, expect, it } from 'vitest';
import { parseAssignments, typedValue } from '../../src/commands/settings/values.js';

const current = { flag: true, limit: 5, ratio: 0.5, list: ['a'], weights: { default: 100 }, text: 'x', unset: null };

describe('settings values', () => {
  it('types each value as the current one is typed', () => {
    expect(
      [
        ['flag', 'false'],
        ['limit', '-3'],
        ['ratio', '0.25'],
        ['list', 'default, storage2,,'],
        ['weights', '{"storage2":10}'],
        ['text', 'a=b'],
        ['unset', 'anything'],
      ].map(([key, text]) => typedValue(current, key!, text!)),
    ).toEqual([false, -3, 0.25, ['default', 'storage2'], { storage2: 10 }, 'a=b', 'anything']);
  });

  it('refuses what does not fit', () => {
    expect(() => typedValue(current, 'ratio', 'half')).toThrow('ratio=half: ratio takes a number');
    expect(() => typedValue(current, 'weights', '[1]')).toThrow('weights=[1]: weights takes a JSON object');
    expect(() => typedValue(current, 'weights', '{')).toThrow('weights={: weights takes a JSON object');
  });

  it('splits KEY=VALUE at the first = and refuses a key given twice', () => {
    expect(parseAssignments(['text=a=b', 'flag=true'])).toEqual([
      ['text', 'a=b'],
      ['flag', 'true'],
    ]);
    expect(() => parseAssignments(['flag=true', 'flag=false'])).toThrow('flag is given twice');
    expect(() => parseAssignments(['=x'])).toThrow("'=x': give each setting as KEY=VALUE");
  });
});
