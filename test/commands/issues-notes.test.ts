import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseNdjson, tempDir } from '../support/harness.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const dir = tempDir();
const commentFile = join(dir, 'comment.md');
writeFileSync(commentFile, 'From a file\n');
const blankFile = join(dir, 'blank.md');
writeFileSync(blankFile, ' \n');

interface NoteJson {
  id: number;
  body: string;
  author: { username: string };
}

describe('issues comment', () => {
  it('comments from --body, --body-file and stdin, printing the note', async () => {
    const inline = await suite.run(['issues', 'comment', '3', '2', '--body', 'Fixed on main', '-o', 'json']);
    expect(inline.exitCode).toBe(0);
    const note = JSON.parse(inline.stdout) as NoteJson;
    expect(note).toMatchObject({ body: 'Fixed on main', author: { username: 'root' } });
    expect(inline.stderr).toBe(`commented on issue #2 of 3 (note ${note.id})\n`);
    expect(onlyRequest(suite, 'POST', /^\/api\/v4\/projects\/3\/issues\/2\/notes$/).bodyJson).toEqual({ body: 'Fixed on main' });

    const fromFile = await suite.run(['issues', 'comment', '3', '2', '--body-file', commentFile, '-o', 'json']);
    expect((JSON.parse(fromFile.stdout) as NoteJson).body).toBe('From a file\n');
    const piped = await suite.run(['issues', 'comment', '3', '2', '-o', 'json'], { input: 'piped text\n' });
    expect((JSON.parse(piped.stdout) as NoteJson).body).toBe('piped text\n');

    const listed = await suite.run(['issues', 'notes', '3', '2', '--limit', '3', '-o', 'ndjson', '--fields', 'body']);
    expect(parseNdjson(listed.stdout)).toEqual([{ body: 'piped text\n' }, { body: 'From a file\n' }, { body: 'Fixed on main' }]);
  });

  it('says what a comment of only quick actions did, printing nothing', async () => {
    const result = await suite.run(['issues', 'comment', '3', '1', '--body', '/close']);
    expect(result).toEqual({ exitCode: 0, stdout: '', stderr: 'issue #1 of 3: only quick actions, no comment: Closed this issue.\n' });
    const issue = await suite.run(['issues', 'get', '3', '1', '--fields', 'state', '-o', 'json']);
    expect(JSON.parse(issue.stdout)).toEqual({ state: 'closed' });
  });

  it('refuses missing, blank or doubled text before any request (exit 2)', async () => {
    const cases: Array<[string[], string]> = [
      [[], 'svc: stdin is empty: give --body or --body-file, or pipe the text on stdin\n'],
      [['--body', '  '], 'svc: --body is empty\n'],
      [['--body-file', blankFile], `svc: --body-file ${blankFile} is empty\n`],
      [['--body', 'a', '--body-file', commentFile], 'svc: give either --body or --body-file, not both\n'],
      [['--body-file', join(dir, 'none.md')], `svc: --body-file ${join(dir, 'none.md')}: no such file\n`],
    ];
    for (const [args, message] of cases) {
      const result = await suite.run(['issues', 'comment', '3', '2', ...args], { input: '' });
      expect(result.stderr).toBe(message);
      expect(result.exitCode).toBe(2);
      expect(suite.requests()).toHaveLength(0);
    }
  });

  it('exits 5 with the iid hint for a missing issue', async () => {
    const result = await suite.run(['issues', 'comment', '3', '999', '--body', 'x']);
    expect(result.stderr).toBe(
      "svc: POST /projects/3/issues/999/notes failed: 404 Issue Not Found (the path takes the issue's iid, its number within the project, not the global id; is #999 right?)\n",
    );
    expect(result.exitCode).toBe(5);
  });
});

describe('issues notes delete', () => {
  it('deletes a note (nothing on stdout); a second delete exits 5 with the note hint', async () => {
    const made = JSON.parse((await suite.run(['issues', 'comment', '3', '2', '--body', 'oops', '-o', 'json'])).stdout) as NoteJson;
    const refused = await suite.run(['issues', 'notes', 'delete', '3', '2', String(made.id)]);
    expect(refused).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: Delete note ${made.id} of issue #2 of 3: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n`,
    });
    expect(suite.requests().filter((r) => r.method === 'DELETE')).toEqual([]);
    const deleted = await suite.run(['issues', 'notes', 'delete', '3', '2', String(made.id), '--yes']);
    expect(deleted).toEqual({ exitCode: 0, stdout: '', stderr: `deleted note ${made.id} of issue #2 of 3\n` });
    expect(onlyRequest(suite, 'DELETE', /notes/).rawPath).toBe(`/api/v4/projects/3/issues/2/notes/${made.id}`);
    const again = await suite.run(['issues', 'notes', 'delete', '3', '2', String(made.id), '--yes']);
    expect(again.stderr).toBe(
      `svc: DELETE /projects/3/issues/2/notes/${made.id} failed: 404 Not found (is ${made.id} a comment of this issue? svc issues notes lists them)\n`,
    );
    expect(again.exitCode).toBe(5);
  });

  it("exits 4 when deleting someone else's note without being a maintainer", async () => {
    const made = JSON.parse(
      (await suite.run(['issues', 'comment', '1', '2', '--body', 'by jdoe', '-o', 'json'], { token: suite.sandbox.tokens.user })).stdout,
    ) as NoteJson;
    const outsider = suite.sandbox.state.user(3)!.username;
    const result = await suite.run(['issues', 'notes', 'delete', '1', '2', String(made.id), '--sudo', outsider, '--yes']);
    expect(result.stderr).toBe(
      `svc: DELETE /projects/1/issues/2/notes/${made.id} failed: 403 Forbidden (this needs the maintainer role or administrator access)\n`,
    );
    expect(result.exitCode).toBe(4);
  });

  it('keeps listing notes under the same name, and refuses a bad note id (exit 2)', async () => {
    const listed = await suite.run(['issues', 'notes', '1', '1', '--all', '-o', 'json']);
    expect(JSON.parse(listed.stdout) as NoteJson[]).toHaveLength(45);
    const bad = await suite.run(['issues', 'notes', 'delete', '3', '2', 'x', '--yes']);
    expect(bad.stderr).toBe("svc: invalid note id 'x': expected a positive whole number\n");
    expect(bad.exitCode).toBe(2);
  });
});

describe('issues notes edit', () => {
  it('replaces the text from --body, --body-file or stdin, printing the note', async () => {
    const made = JSON.parse((await suite.run(['issues', 'comment', '3', '2', '--body', 'first', '-o', 'json'])).stdout) as NoteJson;
    const inline = await suite.run(['issues', 'notes', 'edit', '3', '2', String(made.id), '--body', 'second', '-o', 'json']);
    expect([inline.exitCode, inline.stderr]).toEqual([0, `edited note ${made.id} of issue #2 of 3\n`]);
    expect(onlyRequest(suite, 'PUT', /notes/).bodyJson).toEqual({ body: 'second' });
    expect((JSON.parse(inline.stdout) as NoteJson).body).toBe('second');
    const piped = await suite.run(['issues', 'notes', 'edit', '3', '2', String(made.id), '-o', 'json'], { input: 'third\n' });
    expect((JSON.parse(piped.stdout) as NoteJson).body).toBe('third\n');
    const listed = await suite.run(['issues', 'notes', '3', '2', '--limit', '1', '-o', 'tsv', '--fields', 'id,body']);
    expect(listed.stdout).toBe(`id\tbody\n${made.id}\tthird\\n\n`);
  });

  it('refuses an empty text before any request (exit 2), and explains a missing note (exit 5)', async () => {
    const empty = await suite.run(['issues', 'notes', 'edit', '3', '2', '1', '--body', ' ']);
    expect([empty.exitCode, empty.stderr]).toEqual([2, 'svc: --body is empty\n']);
    expect(suite.requests()).toEqual([]);
    const missing = await suite.run(['issues', 'notes', 'edit', '3', '2', '1', '--body', 'x']);
    expect([missing.exitCode, missing.stderr]).toEqual([
      5,
      'svc: PUT /projects/3/issues/2/notes/1 failed: 404 Not found (is 1 a comment of this issue? svc issues notes lists them)\n',
    ]);
  });

  it("exits 4 when editing someone else's note without being a maintainer", async () => {
    const made = JSON.parse(
      (await suite.run(['issues', 'comment', '1', '2', '--body', 'by jdoe', '-o', 'json'], { token: suite.sandbox.tokens.user })).stdout,
    ) as NoteJson;
    const outsider = suite.sandbox.state.user(3)!.username;
    const result = await suite.run(['issues', 'notes', 'edit', '1', '2', String(made.id), '--body', 'mine now', '--sudo', outsider]);
    expect([result.exitCode, result.stderr]).toEqual([4, `svc: PUT /projects/1/issues/2/notes/${made.id} failed: 403 Forbidden\n`]);
  });
});
