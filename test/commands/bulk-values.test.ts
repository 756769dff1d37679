import { describe, expect, it } from 'vitest';
import { useSandbox } from './support.js';

const lines = (...records: unknown[]) => records.map((r) => `${JSON.stringify(r)}\n`).join('');

describe('svc bulk: values filled into the template stay arguments (#22 item 5)', () => {
  const suite = useSandbox({ projects: 3 });

  it('passes values that read like options (global ones, --help, --debug) as the operand they fill', async () => {
    const input = lines({ id: '--url=http://127.0.0.1:9' }, { id: '--sudo=root' }, { id: '--help' }, { id: '--debug' }, { id: '-5' });
    const result = await suite.run(['bulk', '--max-in-flight', '1', '--', 'projects', 'get', '{id}', '--fields', 'id'], { input });
    expect(result.stdout).toBe(
      lines(
        {
          input: { id: '--url=http://127.0.0.1:9' },
          ok: false,
          exit_code: 2,
          error: "invalid project path '--url=http://127.0.0.1:9': expected namespace/project without leading or trailing '/'",
          result: null,
        },
        ...['--sudo%3Droot', '--help', '--debug'].map((path) => ({
          input: { id: decodeURIComponent(path) },
          ok: false,
          exit_code: 5,
          error: `GET /projects/${path} failed: 404 Project Not Found`,
          result: null,
        })),
        { input: { id: '-5' }, ok: false, exit_code: 2, error: "invalid project id '-5': ids are positive whole numbers", result: null },
      ),
    );
    expect(result.stderr).toBe('bulk: 0 ok, 5 failed\nsvc: 5 of 5 items failed\n');
    expect(result.exitCode).toBe(8);
    const sent = suite.requests().map((r) => `${r.method} ${r.rawPath} sudo=${String(r.headers.sudo)}`);
    expect(sent).toEqual(['--sudo%3Droot', '--help', '--debug'].map((path) => `GET /api/v4/projects/${path} sudo=undefined`));
  });

  it("keeps a value that reads like an option as the value of the template's option", async () => {
    const input = lines({ title: '--help' }, { title: '-q' }, { title: '--url=http://127.0.0.1:9' });
    const result = await suite.run(
      ['bulk', '--max-in-flight', '1', '--', 'issues', 'create', '1', '--title', '{title}', '--description', 'x', '--fields', 'title'],
      { input },
    );
    expect(result.stdout).toBe(
      lines(
        ...['--help', '-q', '--url=http://127.0.0.1:9'].map((title) => ({
          input: { title },
          ok: true,
          exit_code: 0,
          error: null,
          result: { title },
        })),
      ),
    );
    expect(result.stderr).toBe('bulk: 3 ok, 0 failed\n');
    expect(result.exitCode).toBe(0);
    expect(suite.requests().map((r) => `${r.method} ${r.rawPath} ${(r.bodyJson as { title: string }).title}`)).toEqual([
      'POST /api/v4/projects/1/issues --help',
      'POST /api/v4/projects/1/issues -q',
      'POST /api/v4/projects/1/issues --url=http://127.0.0.1:9',
    ]);
  });

  it('shows under --dry-run where the operands were moved behind --, and leaves other commands as typed', async () => {
    const input = lines({ id: '--help', t: '-x' }, { id: 2, t: 'y' });
    const result = await suite.run(
      ['bulk', '--dry-run', '--max-in-flight', '1', '--', 'projects', 'get', '{id}', '-q', '--fields', '{t}'],
      {
        input,
      },
    );
    expect(result.stdout).toBe('svc projects get -q --fields=-x -- --help\nsvc projects get 2 -q --fields y\n');
    expect(result.exitCode).toBe(0);
  });

  it.each([['--{flag}'], ['--{flag}=1'], ['-{f}']])(
    'refuses a placeholder in an option name (%s) with exit 2 before reading input',
    async (word) => {
      const result = await suite.run(['bulk', '--', 'projects', 'get', '1', word], { input: '{"flag":"url","f":"o"}\n' });
      expect(result).toEqual({ exitCode: 2, stdout: '', stderr: `svc: bulk: a placeholder cannot be part of an option's name: ${word}\n` });
      expect(suite.requests()).toEqual([]);
    },
  );
});
