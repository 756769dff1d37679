// On a terminal, `milestones delete` asks first: only `y` or `yes` sends the DELETE.
import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv } from '../support/sandbox.js';
import { useSandbox } from './support.js';

const suite = useSandbox({ projects: 3 });
const terminalEnv = () => ({ ...isolatedEnv({ env: sandboxEnv(suite.sandbox) }), TERM: 'xterm-256color', NO_COLOR: '1' });
const deletes = () =>
  suite
    .requests()
    .filter((r) => r.method === 'DELETE')
    .map((r) => r.rawPath);

describe('milestones delete on a terminal', () => {
  it('asks, and a no (or just Enter) changes nothing (exit 1)', async () => {
    const term = spawnPty(['node', BIN, 'milestones', 'delete', '1', '--project', '2'], { env: terminalEnv() });
    await term.waitFor('Delete milestone 1? [y/N] ');
    term.write('n\r');
    const end = await term.exit();
    expect(end.output).toBe('Delete milestone 1? [y/N] n\r\nsvc: Delete milestone 1: not confirmed, nothing was changed\r\n');
    expect([end.exitCode, deletes()]).toEqual([1, []]);
  });

  it('asks, and a yes deletes it', async () => {
    const term = spawnPty(['node', BIN, 'milestones', 'delete', '1', '--project', '3'], { env: terminalEnv() });
    await term.waitFor('Delete milestone 1? [y/N] ');
    term.write('yes\r');
    const end = await term.exit();
    expect(end.output).toBe('Delete milestone 1? [y/N] yes\r\ndeleted milestone 1\r\n');
    expect([end.exitCode, deletes()]).toEqual([0, ['/api/v4/projects/3/milestones/1']]);
  });
});
