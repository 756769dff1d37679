import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GLOBAL_OPTIONS, globalOptionsTable } from '../../src/global-options.js';

describe('README', () => {
  it('lists the global options exactly as the options table declares them', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = /<!-- global-options:[^\n]*-->\n([\s\S]*?)\n<!-- \/global-options -->/.exec(readme)?.[1];
    expect(block).toBe(globalOptionsTable());
    expect(block?.split('\n')).toHaveLength(GLOBAL_OPTIONS.length + 2);
  });
});
