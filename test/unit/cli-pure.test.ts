import { describe, expect, it } from 'vitest';
import { findNoun } from '../../src/cli/command-words.js';
import { redactToken } from '../../src/config/resolve.js';
import { colorLevel } from '../../src/context.js';
import { Chalk } from 'chalk';
import { getField, pickFields, renderRecord, tsvField, tsvLine } from '../../src/output/format.js';
import { renderTable } from '../../src/output/table.js';
import { addParam, keySegments, parseHeader, typedValue, type Params } from '../../src/commands/api/params.js';

describe('findNoun', () => {
  it('skips global options and their values', () => {
    expect(findNoun(['projects', 'list'])).toBe('projects');
    expect(findNoun(['--url', 'http://x', '-o', 'json', 'projects'])).toBe('projects');
    expect(findNoun(['--url=http://x', '--debug', 'api', 'user'])).toBe('api');
    expect(findNoun(['help', 'auth'])).toBe('auth');
    expect(findNoun(['--version'])).toBeUndefined();
    expect(findNoun(['--', 'projects'])).toBeUndefined();
  });
});

describe('redactToken', () => {
  it('shows the last 4 characters of a token of 12 or more, which tell apart tokens sharing a prefix', () => {
    expect(redactToken('glpat-0123456789abcdef')).toBe('****cdef');
    expect(redactToken('glpat-0123456789abcd12')).toBe('****cd12');
    expect(redactToken('abcdefghijkl')).toBe('****ijkl');
    expect(redactToken('abcdefghijk')).toBe('****');
    expect(redactToken('abc')).toBe('****');
  });
});

describe('colorLevel', () => {
  it('honours FORCE_COLOR, and NO_COLOR, CI, --quiet and pipes turn colour off', () => {
    expect(colorLevel({}, true)).toBe(1);
    expect(colorLevel({}, false)).toBe(0);
    expect(colorLevel({ NO_COLOR: '' }, true)).toBe(0);
    expect(colorLevel({ CI: 'true' }, true)).toBe(0);
    expect(colorLevel({}, true, true)).toBe(0);
    expect(colorLevel({ FORCE_COLOR: '3' }, false)).toBe(3);
    expect(colorLevel({ FORCE_COLOR: '0' }, true)).toBe(0);
    expect(colorLevel({ FORCE_COLOR: '1' }, false, true)).toBe(0);
  });
});

describe('field picking and TSV', () => {
  const record = { id: 1, namespace: { full_path: 'a/b', id: 9 }, tags: ['x', 'y'], description: null };
  it('reads and picks dot paths, keeping nesting', () => {
    expect(getField(record, 'namespace.full_path')).toBe('a/b');
    expect(getField(record, 'namespace.missing.deeper')).toBeUndefined();
    expect(pickFields(record, ['id', 'namespace.full_path', 'nope'])).toEqual({ id: 1, namespace: { full_path: 'a/b' }, nope: null });
  });
  it('draws aligned terminal tables and key/value records without colour at level 0', () => {
    const plain = new Chalk({ level: 0 });
    const table = renderTable([record, { id: 22, namespace: { full_path: 'c' } }], ['id', 'namespace.full_path'], plain);
    const rows = table
      .trimEnd()
      .split('\n')
      .map((l) => l.trim().split(/\s{2,}/));
    expect(rows).toEqual([
      ['id', 'namespace.full_path'],
      ['1', 'a/b'],
      ['22', 'c'],
    ]);
    expect(renderRecord(record, ['id', 'tags'], plain)).toBe('id    1\ntags  x,y\n');
    expect(renderTable([record], ['id'], new Chalk({ level: 1 }))).toMatch(/\u001b\[1mid/);
  });
  it('escapes tabs, newlines and backslashes so a record stays on one line', () => {
    expect(tsvField('a\tb\nc\\d\re')).toBe('a\\tb\\nc\\\\d\\re');
    expect(tsvLine([1, null, ['x', 'y'], { a: 1 }, true])).toBe('1\t\tx,y\t{"a":1}\ttrue\n');
  });
});

describe('svc api parameters', () => {
  it('types -F values', () => {
    expect([typedValue('true'), typedValue('false'), typedValue('null'), typedValue('42'), typedValue('-1.5')]).toEqual([
      true,
      false,
      null,
      42,
      -1.5,
    ]);
    expect([typedValue('007'), typedValue('1e3'), typedValue('x')]).toEqual(['007', '1e3', 'x']);
  });
  it('nests name[], name[key] and name[][key] like gh api', () => {
    const params: Params = {};
    addParam(params, 'ref', 'main');
    addParam(params, 'labels[]', 'a');
    addParam(params, 'labels[]', 'b');
    addParam(params, 'override_params[visibility]', 'private');
    addParam(params, 'variables[][key]', 'A');
    addParam(params, 'variables[][value]', '1');
    addParam(params, 'variables[][key]', 'B');
    addParam(params, 'variables[][value]', '2');
    expect(params).toEqual({
      ref: 'main',
      labels: ['a', 'b'],
      override_params: { visibility: 'private' },
      variables: [
        { key: 'A', value: '1' },
        { key: 'B', value: '2' },
      ],
    });
  });
  it('refuses malformed or conflicting keys with a usage error', () => {
    expect(keySegments('a[b][]')).toEqual(['a', 'b', '']);
    expect(() => keySegments('a[b')).toThrow(/invalid parameter name/);
    const params: Params = { a: 'x' };
    expect(() => addParam(params, 'a[]', 'y')).toThrow(/conflicts/);
    expect(() => addParam(params, 'a', 'y')).toThrow(/given twice/);
  });
  it('parses headers', () => {
    expect(parseHeader('X-Service-Spam-Log-Id: 42')).toEqual(['X-Service-Spam-Log-Id', '42']);
    expect(parseHeader('Accept:')).toEqual(['Accept', '']);
    expect(() => parseHeader('no colon')).toThrow(/Name: value/);
  });
});
