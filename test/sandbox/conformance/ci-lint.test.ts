// CI lint: the service's lib/api/lint.rb (POST needs `create_pipeline`, GET `read_code` and answers
// `not_found!('Repository')` for an empty repository, `not_found!('Commit')` for an unknown ref, `sha` and
// `content_ref` mutually exclusive), lib/gitlab/ci/lint.rb (static check, dry run, the jobs listed),
// entities/ci/lint/result.rb (valid, errors, warnings, merged_yaml, includes, jobs with include_jobs).
// The message texts come from lib/gitlab/ci/yaml_processor.rb (`Please provide content of
// .gitlab-ci.yml`, `chosen stage … does not exist; available stages are …`, `undefined need: …`,
// `undefined dependency: …`), lib/gitlab/config/entry/validator.rb and validators.rb with
// lib/gitlab/ci/config/entry/jobs.rb, job.rb and processable.rb, lib/gitlab/ci/config/extendable/entry.rb (`config should implement the script:,
// run:, or trigger: keyword`, `config contains unknown keys: …`, `config key may not be used with
// `rules`: …`, the `rules:when` warning), lib/gitlab/config/loader/yaml.rb (`Invalid configuration
// format`) and lib/gitlab/ci/config/external/file/base.rb, local.rb, project.rb, remote.rb and template.rb
// (the include errors).
// The sandbox's choices are in src/sandbox/README.md, "CI lint".
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 5 });
const lint = (content: unknown, extra: Record<string, unknown> = {}, as: 'admin' | 'user' = 'admin') =>
  c.call('/projects/1/ci/lint', { as, method: 'POST', json: { content, ...extra } });
const errorsOf = async (content: string) => {
  const r = await lint(content);
  expect([r.status, r.json.valid]).toEqual([200, false]);
  return r.json.errors as string[];
};
/** Each config's one error is the one given. */
const expectFirstErrors = async (cases: Array<[string, string]>) => {
  for (const [content, error] of cases) expect(await errorsOf(content)).toEqual([error]);
};
const DOCS = 'read more: https://docs.gitlab.com/ee/ci/troubleshooting.html#pipeline-warnings';

describe('POST /projects/:id/ci/lint', () => {
  it('answers a valid config with the Result entity, the jobs by stage as the static check lists them', async () => {
    const content =
      'stages: [build, test]\ndefault:\n  before_script: [setup]\nbuild:\n  stage: build\n  script: make\n  tags: [docker]\n' +
      'test:\n  script: [make test, [make lint]]\n  needs: [build]\n  environment: review\n  when: manual\n';
    const r = await lint(content, { include_jobs: true });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({
      valid: true,
      errors: [],
      warnings: [],
      merged_yaml:
        '---\nstages:\n- build\n- test\ndefault:\n  before_script:\n  - setup\nbuild:\n  stage: build\n  script: make\n  tags:\n  - docker\n' +
        'test:\n  script:\n  - make test\n  - - make lint\n  needs:\n  - build\n  environment: review\n  when: manual\n',
      includes: [],
      jobs: [
        {
          name: 'build',
          stage: 'build',
          before_script: ['setup'],
          script: ['make'],
          after_script: [],
          tag_list: ['docker'],
          only: { refs: ['branches', 'tags'] },
          except: null,
          environment: null,
          when: 'on_success',
          allow_failure: false,
          needs: null,
        },
        {
          name: 'test',
          stage: 'test',
          before_script: ['setup'],
          script: ['make test', 'make lint'],
          after_script: [],
          tag_list: [],
          only: { refs: ['branches', 'tags'] },
          except: null,
          environment: 'review',
          when: 'manual',
          allow_failure: true,
          needs: [{ name: 'build', artifacts: true, optional: false }],
        },
      ],
    });
    const without = await lint('build:\n  script: make\n');
    expect(Object.keys(without.json)).toEqual(['valid', 'errors', 'warnings', 'merged_yaml', 'includes']);
  });

  it('requires content, and reads blank content as none', async () => {
    const missing = await c.call('/projects/1/ci/lint', { as: 'admin', method: 'POST', json: {} });
    expect([missing.status, missing.json]).toEqual([400, { error: 'content is missing' }]);
    const blank = await lint('  \n');
    expect(blank.json).toEqual({
      valid: false,
      errors: ['Please provide content of .gitlab-ci.yml'],
      warnings: [],
      merged_yaml: null,
      includes: null,
    });
  });

  it('reports YAML it cannot parse, or that is no mapping, as the one error without merged YAML', async () => {
    const syntax = await lint('build:\n  script: [make\n');
    expect(syntax.json).toMatchObject({ valid: false, merged_yaml: null, includes: null });
    expect(syntax.json.errors).toEqual([
      '(<unknown>): flow sequence in block collection must be sufficiently indented and end with a ] at line 3 column 1',
    ]);
    expect(await errorsOf('- build\n')).toEqual(['Invalid configuration format']);
  });

  it('lists every entry error: unknown top-level keys read as jobs, unknown job keywords, rules with only/except, bad types', async () => {
    const content =
      'stages: build\nvariabels:\n  A: 1\nbuild:\n  script: make\n  artifact: x\n  scripts: y\n' +
      'deploy:\n  script: 1\n  stage: [deploy]\n  when: later\n  except: [main]\n  only: [tags]\n  rules:\n    - if: $X\n';
    expect(await errorsOf(content)).toEqual([
      'stages config should be an array of strings',
      'jobs variabels config should implement the script:, run:, or trigger: keyword',
      'jobs:build config contains unknown keys: artifact, scripts',
      'jobs:deploy config key may not be used with `rules`: except, only',
      'jobs:deploy when should be one of: on_success, on_failure, always, manual, delayed',
      'jobs:deploy:script config should be a string or a nested array of strings up to 10 levels deep',
      'jobs:deploy:stage config should be a string',
    ]);
    expect(await errorsOf('.hidden:\n  script: make\nMy_Job:\n  image: x\n')).toEqual([
      'jobs my_job config should implement the script:, run:, or trigger: keyword',
      'jobs config should contain at least one visible job',
    ]);
  });

  it('then reports the first logical error: a stage not declared, a need or dependency naming no job or a later one', async () => {
    await expectFirstErrors([
      [
        'stages: [build]\nbuild:\n  stage: build\n  script: make\nunit:\n  script: t\n',
        'unit job: chosen stage test does not exist; available stages are .pre, build, .post',
      ],
      ['build:\n  stage: build\n  script: make\ntest:\n  script: t\n  needs: [buidl, build]\n', 'test job: undefined need: buidl'],
      [
        'build:\n  stage: deploy\n  script: make\ntest:\n  script: t\n  dependencies: [build]\n',
        'test job: dependency build is not defined in current or prior stages',
      ],
      ['test:\n  script: t\n  dependencies: [compile]\n', 'test job: undefined dependency: compile'],
      ['a:\n  script: t\nb:\n  script: t\n  needs: [a, a]\n', 'b has the following needs duplicated: a.'],
    ]);
    const optional = await lint('test:\n  script: t\n  needs: [{job: lint, optional: true}]\n');
    expect(optional.json.valid).toBe(true);
  });

  it('warns of a last rule that is a bare when without workflow:rules', async () => {
    const r = await lint('build:\n  script: make\n  rules:\n    - if: $A\n    - when: always\n');
    expect(r.json).toMatchObject({
      valid: true,
      warnings: [
        `jobs:build may allow multiple pipelines to run for a single action due to \`rules:when\` clause with no \`workflow:rules\` - ${DOCS}`,
      ],
    });
    const withWorkflow = await lint('workflow:\n  rules:\n    - when: always\nbuild:\n  script: make\n  rules:\n    - when: always\n');
    expect(withWorkflow.json.warnings).toEqual([]);
  });

  it('merges local includes from the default branch and project includes, listing them in includes', async () => {
    const put = (pid: number, path: string, content: string) =>
      c.call(`/projects/${pid}/repository/files/${encodeURIComponent(path)}`, {
        as: 'admin',
        method: 'POST',
        json: { branch: 'main', content, commit_message: 'ci' },
      });
    expect((await put(1, 'ci/build.yml', 'build:\n  script: make\n  stage: build\n')).status).toBe(201);
    expect((await put(3, 'templates/lint.yml', 'lint:\n  script: lint\n')).status).toBe(201);
    const sha1 = (await c.call('/projects/1/repository/commits/main', { as: 'admin' })).json.id as string;
    const sha3 = (await c.call('/projects/3/repository/commits/main', { as: 'admin' })).json.id as string;
    const content =
      'include:\n  - local: /ci/build.yml\n  - project: acme/nice-lynx-3\n    file: templates/lint.yml\nbuild:\n  stage: test\n';
    const r = await lint(content);
    const web = `${c.sb.url}/acme/platform/icy-tiger-1`;
    expect(r.json).toEqual({
      valid: true,
      errors: [],
      warnings: [],
      merged_yaml: '---\nbuild:\n  script: make\n  stage: test\nlint:\n  script: lint\n',
      includes: [
        {
          context_project: 'acme/platform/icy-tiger-1',
          context_sha: sha1,
          type: 'local',
          location: 'ci/build.yml',
          blob: `${web}/-/blob/${sha1}/ci/build.yml`,
          raw: `${web}/-/raw/${sha1}/ci/build.yml`,
          extra: {},
        },
        {
          context_project: 'acme/platform/icy-tiger-1',
          context_sha: sha1,
          type: 'file',
          location: 'templates/lint.yml',
          blob: `${c.sb.url}/acme/nice-lynx-3/-/blob/${sha3}/templates/lint.yml`,
          raw: `${c.sb.url}/acme/nice-lynx-3/-/raw/${sha3}/templates/lint.yml`,
          extra: { project: 'acme/nice-lynx-3', ref: 'HEAD' },
        },
      ],
    });
  });

  it('reports the first include it cannot resolve as the one error', async () => {
    const job = 'build:\n  script: make\n';
    await expectFirstErrors([
      [`include: ci/missing.yml\n${job}`, 'Local file `ci/missing.yml` does not exist!'],
      [`include: ci/notes.txt\n${job}`, 'Included file `ci/notes.txt` does not have YAML extension!'],
      [
        `include:\n  project: acme/nowhere\n  file: ci.yml\n${job}`,
        'Project `acme/nowhere` not found or access denied! Make sure any includes in the pipeline configuration are correctly defined.',
      ],
      [
        `include:\n  project: acme/nice-lynx-3\n  ref: nope\n  file: ci.yml\n${job}`,
        'Project `acme/nice-lynx-3` reference `nope` does not exist!',
      ],
      [
        `include:\n  project: acme/nice-lynx-3\n  file: missing.yml\n${job}`,
        'Project `acme/nice-lynx-3` file `missing.yml` does not exist!',
      ],
      [
        `include:\n  remote: https://example.com/ci/shared.yml\n${job}`,
        'Remote file `https://example.com/ci/shared.yml` could not be fetched because of a socket error!',
      ],
      [
        `include: https://example.com/ci/shared.txt\n${job}`,
        'Included file `https://example.com/ci/shared.txt` does not have YAML extension!',
      ],
      [`include:\n  template: Nope.yml\n${job}`, 'Template file `Nope.yml` is not a valid location!'],
    ]);
    const r = await lint(`include: ci/missing.yml\n${job}`);
    expect([r.json.merged_yaml, r.json.includes]).toEqual([null, null]);
  });

  it('resolves extends, and reports an unknown, invalid or circular base', async () => {
    const r = await lint('.base:\n  script: make\n  tags: [docker]\nbuild:\n  extends: .base\n  tags: [shell]\n', { include_jobs: true });
    expect(r.json.jobs.map((j: { name: string; script: string[]; tag_list: string[] }) => [j.name, j.script, j.tag_list])).toEqual([
      ['build', ['make'], ['shell']],
    ]);
    await expectFirstErrors([
      ['build:\n  extends: [.nope, .base, .none]\n  script: make\n.base: {}\n', 'build: unknown keys in `extends` (.nope, .none)'],
      ['.base: [make]\nbuild:\n  extends: .base\n  script: make\n', 'build: invalid base hashes in `extends` (.base)'],
      ['a:\n  extends: b\n  script: x\nb:\n  extends: a\n  script: y\n', 'a: circular dependency detected in `extends`'],
    ]);
  });

  it('with dry_run reports only the first error, lists jobs without only, except and needs, and needs a branch or tag', async () => {
    const invalid = await lint('job: {}\n', { dry_run: true });
    expect(invalid.json.errors).toEqual(['jobs job config should implement the script:, run:, or trigger: keyword']);
    const valid = await lint('build:\n  script: make\n', { dry_run: true, include_jobs: true, ref: 'develop' });
    expect(valid.json.jobs).toEqual([
      {
        name: 'build',
        stage: 'test',
        before_script: [],
        script: ['make'],
        after_script: [],
        tag_list: [],
        environment: null,
        when: 'on_success',
        allow_failure: false,
      },
    ]);
    const ref = await lint('build:\n  script: make\n', { dry_run: true, ref: 'nope' });
    expect(ref.json).toEqual({ valid: false, errors: ['Reference not found'], warnings: [], merged_yaml: null, includes: null });
  });

  it('needs the developer role: 403 below it, 401 without a token, 404 for a project the caller cannot see', async () => {
    const guest = await c.call('/projects/4/ci/lint', { as: 'user', method: 'POST', json: { content: 'a:\n  script: b\n' } });
    expect([guest.status, guest.json]).toEqual([403, { message: '403 Forbidden' }]);
    const anonymous = await c.call('/projects/1/ci/lint', { method: 'POST', json: { content: 'a:\n  script: b\n' } });
    expect([anonymous.status, anonymous.json]).toEqual([401, { message: '401 Unauthorized' }]);
    const hidden = await c.call('/projects/2/ci/lint', { method: 'POST', json: { content: 'a:\n  script: b\n' } });
    expect(hidden.status).toBe(401);
    const none = await c.call('/projects/999/ci/lint', { as: 'admin', method: 'POST', json: { content: 'a:\n  script: b\n' } });
    expect([none.status, none.json]).toEqual([404, { message: '404 Project Not Found' }]);
  });
});

describe('GET /projects/:id/ci/lint', () => {
  it('lints the .gitlab-ci.yml of the default branch, or of sha / content_ref, for anyone who can read the code', async () => {
    const r = await c.call('/projects/4/ci/lint?include_jobs=true', { as: 'user' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ valid: true, errors: [], warnings: [], includes: [] });
    expect(r.json.jobs.map((j: { name: string; stage: string }) => [j.name, j.stage])).toEqual([
      ['build', 'build'],
      ['test', 'test'],
    ]);
    const anonymous = await c.call('/projects/4/ci/lint?content_ref=develop');
    expect([anonymous.status, anonymous.json.valid]).toEqual([200, true]);
    const hidden = await c.call('/projects/2/ci/lint');
    expect([hidden.status, hidden.json]).toEqual([404, { message: '404 Project Not Found' }]);
  });

  it('answers 404 for an unknown ref or an empty repository, 400 for sha with content_ref, and no content without the file', async () => {
    const unknown = await c.call('/projects/1/ci/lint?sha=nope', { as: 'admin' });
    expect([unknown.status, unknown.json]).toEqual([404, { message: '404 Commit Not Found' }]);
    const both = await c.call('/projects/1/ci/lint?sha=main&content_ref=main', { as: 'admin' });
    expect([both.status, both.json]).toEqual([400, { error: 'sha, content_ref are mutually exclusive' }]);
    const created = await c.call('/projects', { as: 'admin', method: 'POST', json: { name: 'Lint Empty', path: 'lint-empty' } });
    const empty = await c.call(`/projects/${created.json.id}/ci/lint`, { as: 'admin' });
    expect([empty.status, empty.json]).toEqual([404, { message: '404 Repository Not Found' }]);
    await c.call(`/projects/${created.json.id}/repository/files/README.md`, {
      as: 'admin',
      method: 'POST',
      json: { branch: 'main', content: '# x\n', commit_message: 'readme' },
    });
    const noFile = await c.call(`/projects/${created.json.id}/ci/lint`, { as: 'admin' });
    expect(noFile.json).toEqual({
      valid: false,
      errors: ['Please provide content of .gitlab-ci.yml'],
      warnings: [],
      merged_yaml: null,
      includes: null,
    });
  });
});
