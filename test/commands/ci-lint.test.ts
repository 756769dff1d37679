import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/harness.js';
import { useSandbox } from './support.js';

// `svc ci lint` over the sandbox's `…/ci/lint`, which answers as the service's lib/api/lint.rb
// (test/sandbox/conformance/ci-lint.test.ts has the answers and the source of each message).
describe('svc ci lint', () => {
  const suite = useSandbox({ projects: 5 });
  const dir = tempDir('svc-ci-lint-');
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  const api = async (method: string, path: string, json?: unknown) => {
    const r = await fetch(`${suite.sandbox.url}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.admin, 'Content-Type': 'application/json' },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    return r.json();
  };

  it('says a valid file is valid, sending the content with dry_run and include_jobs, and lists the jobs with --include-jobs', async () => {
    const path = file(
      'valid.yml',
      'stages: [build, test]\nbuild:\n  stage: build\n  script: make\ntest:\n  script: make test\n  needs: [build]\n',
    );
    const result = await suite.run(['ci', 'lint', 'acme/platform/icy-tiger-1', '--file', path, '--include-jobs', '-o', 'tsv']);
    expect(result).toEqual({
      exitCode: 0,
      stdout: 'name\tstage\twhen\tallow_failure\nbuild\tbuild\ton_success\tfalse\ntest\ttest\ton_success\tfalse\n',
      stderr: `${path} is valid\n`,
    });
    const [request] = suite.requests();
    expect([request!.method, request!.rawPath]).toEqual(['POST', '/api/v4/projects/acme%2Fplatform%2Ficy-tiger-1/ci/lint']);
    expect(JSON.parse(request!.body!.toString())).toEqual({
      content: 'stages: [build, test]\nbuild:\n  stage: build\n  script: make\ntest:\n  script: make test\n  needs: [build]\n',
      dry_run: false,
      include_jobs: true,
    });
    const quiet = await suite.run(['ci', 'lint', '1', '--file', path, '-q']);
    expect(quiet).toEqual({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('exits 6 on each kind of error, one line on stderr for each error and warning', async () => {
    const cases: Array<[string, string[]]> = [
      [
        'build: [script\n',
        ['error: (<unknown>): flow sequence in block collection must be sufficiently indented and end with a ] at line 2 column 1'],
      ],
      [
        'build:\n  script: make\n  artifact: x\nnotes: see README\n',
        [
          'error: jobs notes config should implement the script:, run:, or trigger: keyword',
          'error: jobs:build config contains unknown keys: artifact',
        ],
      ],
      [
        'stages: [build]\nunit:\n  stage: test\n  script: make\n',
        ['error: unit job: chosen stage test does not exist; available stages are .pre, build, .post'],
      ],
      ['build:\n  script: make\ntest:\n  script: make test\n  needs: [buidl]\n', ['error: test job: undefined need: buidl']],
      [
        'build:\n  script: make\ntest:\n  script: make test\n  dependencies: [compile]\n',
        ['error: test job: undefined dependency: compile'],
      ],
      ['include: ci/missing.yml\nbuild:\n  script: make\n', ['error: Local file `ci/missing.yml` does not exist!']],
      [
        'include:\n  - project: acme/nowhere\n    file: ci.yml\nbuild:\n  script: make\n',
        [
          'error: Project `acme/nowhere` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.',
        ],
      ],
      [
        'build:\n  script: make\n  only: [main]\n  rules:\n    - when: always\n',
        [
          'error: jobs:build config key may not be used with `rules`: only',
          'warning: jobs:build may allow multiple pipelines to run for a single action due to `rules:when` clause with no `workflow:rules` - read more: https://docs.gitlab.com/ee/ci/troubleshooting.html#pipeline-warnings',
        ],
      ],
    ];
    for (const [text, lines] of cases) {
      const result = await suite.run(['ci', 'lint', '1', '-'], { input: text });
      const errors = lines.filter((l) => l.startsWith('error:')).length;
      const summary = `svc: the config from stdin is invalid: ${errors} error${errors === 1 ? '' : 's'}`;
      expect(result).toEqual({ exitCode: 6, stdout: '', stderr: [...lines, summary, ''].join('\n') });
    }
  });

  it('-o json prints the service’s answer as it came, merged YAML and includes too, and keeps exit 6 when invalid', async () => {
    await api('POST', '/projects/1/repository/files/ci%2Fbuild.yml', {
      branch: 'main',
      content: 'build:\n  script: make\n',
      commit_message: 'ci',
    });
    const text = 'include:\n  - local: ci/build.yml\ntest:\n  script: make test\n';
    const result = await suite.run(['ci', 'lint', '1', '--file', '-', '--include-jobs', '-o', 'json'], { input: text });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(await api('POST', '/projects/1/ci/lint', { content: text, include_jobs: true }));
    expect(JSON.parse(result.stdout)).toMatchObject({
      valid: true,
      merged_yaml: '---\nbuild:\n  script: make\ntest:\n  script: make test\n',
    });
    const invalid = await suite.run(['ci', 'lint', '1', '--file', '-', '-o', 'json'], { input: 'job: {}\n' });
    expect(invalid.exitCode).toBe(6);
    expect(JSON.parse(invalid.stdout)).toEqual({
      valid: false,
      errors: [
        'jobs job config should implement the script:, run:, or trigger: keyword',
        'jobs config should contain at least one visible job',
      ],
      warnings: [],
      merged_yaml: '---\njob: {}\n',
      includes: [],
    });
  });

  it('without --file lints the project’s own .gitlab-ci.yml at --ref, by GET', async () => {
    const result = await suite.run(['ci', 'lint', '1', '--ref', 'develop', '--dry-run']);
    expect(result).toEqual({ exitCode: 0, stdout: '', stderr: '.gitlab-ci.yml of 1 at develop is valid\n' });
    const [request] = suite.requests();
    expect(`${request!.method} ${request!.rawPath}?${request!.rawQuery}`).toBe(
      'GET /api/v4/projects/1/ci/lint?sha=develop&ref=develop&dry_run=true&include_jobs=false',
    );
    const missing = await suite.run(['ci', 'lint', '1', '--ref', 'no-such-branch']);
    expect(missing).toEqual({ exitCode: 5, stdout: '', stderr: 'svc: GET /projects/1/ci/lint failed: 404 Commit Not Found\n' });
  });

  it('refuses a file it cannot read, a directory, an empty stdin, bytes that are not UTF-8 and two sources, before any request', async () => {
    const missing = await suite.run(['ci', 'lint', '1', '--file', join(dir, 'nope.yml')]);
    expect(missing).toEqual({ exitCode: 2, stdout: '', stderr: `svc: --file ${join(dir, 'nope.yml')}: no such file\n` });
    const directory = await suite.run(['ci', 'lint', '1', '--file', dir]);
    expect(directory).toEqual({ exitCode: 2, stdout: '', stderr: `svc: --file ${dir}: is a directory, not a file\n` });
    const both = await suite.run(['ci', 'lint', '1', '-', '--file', dir]);
    expect(both).toEqual({ exitCode: 2, stdout: '', stderr: 'svc: give either --file or -, not both\n' });
    const empty = await suite.run(['ci', 'lint', '1', '-'], { input: '' });
    expect(empty).toEqual({ exitCode: 2, stdout: '', stderr: 'svc: --file -: stdin is empty; pipe the config in, or give --file PATH\n' });
    const binary = join(dir, 'binary.yml');
    writeFileSync(binary, Buffer.from([0x62, 0x3a, 0x20, 0xff, 0xfe, 0x0a]));
    const notText = await suite.run(['ci', 'lint', '1', '--file', binary]);
    expect(notText).toEqual({ exitCode: 2, stdout: '', stderr: `svc: --file ${binary}: not UTF-8 text (a CI config is YAML, which is)\n` });
    const notTextIn = await suite.run(['ci', 'lint', '1', '-'], { input: Buffer.from([0xc3, 0x28]) });
    expect(notTextIn).toEqual({ exitCode: 2, stdout: '', stderr: 'svc: --file -: not UTF-8 text (a CI config is YAML, which is)\n' });
    const stray = await suite.run(['ci', 'lint', '1', 'ci.yml']);
    expect(stray).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: "svc: unexpected argument 'ci.yml': give the file as --file ci.yml, or - for stdin\n",
    });
    expect(suite.requests()).toEqual([]);
  });

  it('gives the service’s refusals: a role below developer for a file, a project it cannot find', async () => {
    const me = (await (
      await fetch(`${suite.sandbox.url}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': suite.sandbox.tokens.user } })
    ).json()) as { id: number };
    await api('POST', '/projects/4/members', { user_id: me.id, access_level: 20 });
    const reporter = await suite.run(['ci', 'lint', '4', '--file', '-'], {
      input: 'build:\n  script: make\n',
      token: suite.sandbox.tokens.user,
    });
    expect(reporter).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: POST /projects/4/ci/lint failed: 403 Forbidden (this needs the developer role or administrator access)\n',
    });
    const own = await suite.run(['ci', 'lint', '4'], { token: suite.sandbox.tokens.user });
    expect(own).toEqual({ exitCode: 0, stdout: '', stderr: '.gitlab-ci.yml of 4 is valid\n' });
    const nowhere = await suite.run(['ci', 'lint', 'acme/nowhere', '--file', '-'], { input: 'build:\n  script: make\n' });
    expect(nowhere).toEqual({
      exitCode: 5,
      stdout: '',
      stderr: 'svc: POST /projects/acme%2Fnowhere/ci/lint failed: 404 Project Not Found\n',
    });
  });
});
