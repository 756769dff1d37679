import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { NOUNS } from '../../src/commands/index.js';
import { BIN } from '../support/harness.js';

// The binary runs the bundle (dist/bundle/), while in-process tests run the sources: every noun's
// chunk must load from the bundle as it does from the sources.
describe('the bundled binary', () => {
  it('loads every noun and prints its help', async () => {
    const results = await Promise.all(
      NOUNS.map(async (noun) => {
        const result = await execa(process.execPath, [BIN, noun.name, '--help'], {
          env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' },
          extendEnv: false,
          reject: false,
        });
        const names = [noun.name, ...(noun.aliases ?? [])].join('|');
        return { noun: names, exitCode: result.exitCode, usage: result.stdout.split('\n')[0], stderr: result.stderr };
      }),
    );
    for (const result of results) {
      expect(result).toEqual({
        noun: result.noun,
        exitCode: 0,
        usage: expect.stringMatching(new RegExp(`^Usage: svc ${result.noun.replace(/[|-]/g, '\\$&')} `)) as unknown as string,
        stderr: '',
      });
    }
  });
});
