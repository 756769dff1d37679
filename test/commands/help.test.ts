import { describe, expect, it } from 'vitest';
import { svc } from '../support/harness.js';

/** The interface scripts depend on: any change to a flag, argument or example shows up here. */
const COMMANDS: Record<string, string[]> = {
  projects: ['list', 'get', 'create', 'import', 'unshare'],
  issues: ['get', 'notes'],
  pipeline: ['create', 'get', 'wait'],
  files: ['get'],
  branches: ['commits'],
  tags: ['get'],
  jobs: ['artifacts'],
  releases: ['list'],
  namespaces: ['list'],
  groups: ['list'],
  users: ['list'],
  snippets: ['create'],
};

describe('--help', () => {
  for (const [noun, verbs] of Object.entries(COMMANDS)) {
    it(`svc ${noun}`, async () => {
      const nounHelp = await svc([noun, '--help'], { env: { COLUMNS: '100' } });
      expect(nounHelp.exitCode).toBe(0);
      expect(nounHelp.stdout).toMatchSnapshot();
      for (const verb of verbs) {
        const help = await svc([noun, verb, '--help'], { env: { COLUMNS: '100' } });
        expect(help.exitCode).toBe(0);
        expect(help.stdout).toContain('Examples:\n  $ svc ');
        expect(help.stdout).toMatchSnapshot(`${noun} ${verb}`);
      }
    });
  }
});
