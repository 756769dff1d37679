import { describe, expect, it } from 'vitest';
import { useSandbox } from './support.js';

const suite = useSandbox({ projects: 3 });

describe('pipeline delete --older-than without the owner role', () => {
  it('stops at the first refusal, names the owner role in one line and exits 4; nothing else is sent', async () => {
    const listed = await suite.run(['pipeline', 'list', '2', '--all', '-o', 'json', '--fields', 'id,ref,status,updated_at,web_url']);
    const old = (JSON.parse(listed.stdout) as Array<{ id: number; ref: string; status: string; updated_at: string; web_url: string }>).sort(
      (a, b) => a.id - b.id,
    );
    expect(old.map((p) => p.id)).toEqual([4, 5, 6]);

    const r = await suite.run(['pipeline', 'delete', '2', '--older-than', '30d', '--yes', '--max-in-flight', '1', '-o', 'ndjson'], {
      token: suite.sandbox.tokens.user,
    });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toBe(
      'found 3 pipelines of project 2 not updated for 30d:\n' +
        old.map((p) => `  ${p.id}  ${p.ref}  ${p.status}  ${p.updated_at}\n`).join('') +
        'warning: pipeline 4 was not deleted: DELETE /projects/2/pipelines/4 failed: 403 Forbidden\n' +
        'svc: deleting pipelines of project 2 needs the owner role or administrator access (403 from the service): ' +
        'deleted 0 of 3 pipelines; 1 refused, 2 not started\n',
    );
    expect(r.stdout).toBe(
      `${JSON.stringify({ ...old[0], outcome: 'failed', error: 'DELETE /projects/2/pipelines/4 failed: 403 Forbidden' })}\n`,
    );
    expect(
      suite
        .requests()
        .filter((q) => q.method === 'DELETE')
        .map((q) => q.rawPath),
    ).toEqual(['/api/v4/projects/2/pipelines/4']);
  });

  it('names the missing scope instead when the token lacks it (exit 4)', async () => {
    const r = await suite.run(['pipeline', 'delete', '3', '--older-than', '30d', '--yes', '--max-in-flight', '1'], {
      token: suite.sandbox.tokens.readApi,
    });
    expect([r.exitCode, r.stdout, r.stderr.split('\n').slice(4)]).toEqual([
      4,
      '',
      [
        "warning: pipeline 7 was not deleted: DELETE /projects/3/pipelines/7 failed: 403 Forbidden: insufficient_scope: The request requires higher privileges than provided by the access token. (the token lacks the scope 'api')",
        "svc: deleting pipelines of project 3 needs a token with the scope 'api' (403 from the service): deleted 0 of 3 pipelines; 1 refused, 2 not started",
        '',
      ],
    ]);
  });
});
