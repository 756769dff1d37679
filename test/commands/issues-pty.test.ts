// On a terminal, stdin is a person, not a pipe: create and comment must not wait for it.
import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv } from '../support/harness.js';
import { spawnPty } from '../support/pty.js';
import { sandboxEnv } from '../support/sandbox.js';
import { useSandbox } from './support.js';

const suite = useSandbox({ projects: 4 });
const terminalEnv = () => ({ ...isolatedEnv({ env: sandboxEnv(suite.sandbox) }), TERM: 'xterm-256color', NO_COLOR: '1' });

describe('issues on a terminal', () => {
  it('comment without --body or --body-file says how to give the text, without reading the terminal (exit 2)', async () => {
    const term = spawnPty(['node', BIN, 'issues', 'comment', '3', '2'], { env: terminalEnv() });
    const end = await term.exit();
    expect(end.output).toBe('svc: no text: give --body or --body-file, or pipe it on stdin\r\n');
    expect(end.exitCode).toBe(2);
    expect(suite.requests()).toHaveLength(0);
  });

  it('create without a description opens the issue without one, without reading the terminal', async () => {
    const term = spawnPty(
      ['node', BIN, 'issues', 'create', '3', '--title', 'From a terminal', '-o', 'json', '--fields', 'title,description'],
      {
        env: terminalEnv(),
      },
    );
    const end = await term.exit();
    expect(end.exitCode).toBe(0);
    const posts = suite.requests().filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.bodyJson)).toEqual([{ title: 'From a terminal' }]);
    expect(end.output).toMatch(/^created issue #\d+: http:\/\/127\.0\.0\.1:\d+\/\S+\/-\/issues\/\d+\r\n/);
    expect(end.output.replace(/^created issue[^\n]*\n/, '')).toBe('{\r\n  "title": "From a terminal",\r\n  "description": ""\r\n}\r\n');
  });
});
