// python-gitlab's CLI (Debian's python3-gitlab, installed by .ci/run) against `svc … list`: the
// same records for each case. A missing peer fails: the proof must not vanish.
import { existsSync } from 'node:fs';
import { execa } from 'execa';
import { expect, it } from 'vitest';
import type { useSandbox } from './support.js';

const PEER = '/usr/bin/python-gitlab';

/** Name, svc's arguments, the peer's (`{username}` stands for the user's id), how many records match. */
export type PeerCase = [string, string[], string[], number];

type Suite = ReturnType<typeof useSandbox>;

const idsOf = (json: string) => (JSON.parse(json) as Array<{ id: number }>).map((record) => record.id);

/** One test that the peer is installed, then one per case: `svc <list…> args --all` and the peer list the same ids. */
export function agreeWithPythonGitlab(suite: Suite, list: string[], cases: PeerCase[]): void {
  it('the peer is installed', () => {
    expect(existsSync(PEER)).toBe(true);
  });

  for (const [name, svcArgs, peerArgs, count] of cases) {
    it(name, async () => {
      const ours = await suite.run([...list, ...svcArgs, '--all', '-o', 'json']);
      expect(ours.stderr).toBe('');
      expect(ours.exitCode).toBe(0);
      const ourIds = idsOf(ours.stdout);
      expect(ourIds).toHaveLength(count);
      const { url, tokens } = suite.sandbox;
      const args = peerArgs.map((arg) =>
        arg.replace(/^\{(.+)\}$/, (_m, username: string) => String(suite.sandbox.state.user(username)!.id)),
      );
      const peer = await execa(PEER, ['--server-url', url, '--private-token', tokens.admin, '-o', 'json', ...args, '--get-all'], {
        env: { PATH: '/usr/bin:/bin', HOME: '/nonexistent' },
        extendEnv: false,
        reject: false,
        timeout: 60_000,
      });
      expect(peer.stderr).toBe('');
      expect(idsOf(peer.stdout)).toEqual(ourIds);
    });
  }
}
