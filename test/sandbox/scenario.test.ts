// `svc sandbox --scenario`: a scenario file loaded through the stores (users, nested groups,
// members, projects with files and branches, variables, schedules, environments, pipelines with downstream and
// child pipelines that move on the sandbox clock), every validation mistake on its own line with
// file, line and field, and the JSON Schema printed from the same definition the validator reads.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseScenario, SCENARIO_SCHEMA, type Sandbox } from '../../src/sandbox/index.js';
import { TestClock } from '../support/clock.js';
import { cleanupTempDirs, svc, tempDir } from '../support/harness.js';
import { startTestSandbox } from '../support/sandbox.js';
import { req } from './helpers.js';

const WORLD = `users:
  - username: alice
    name: Alice Example
  - { username: bob }
groups:
  - path: acme
    visibility: internal
    members:
      - { user: alice, role: developer }
    variables:
      - { key: REGISTRY, value: registry.example.com }
    subgroups:
      - path: platform
        members: [{ user: bob, role: maintainer }]
projects:
  - path: app
    namespace: acme
    files:
      README.md: "# app\\n"
      .gitlab-ci.yml: "build: { script: make }\\n"
    branches: [develop]
    variables:
      - { key: DEPLOY_TARGET, value: staging, protected: true }
    schedules:
      - { description: nightly, cron: "0 2 * * *", owner: alice, ref: develop }
    environments:
      - name: production
        external_url: "https://app.example.com"
        required_approvals: 2
        deployments:
          - { days_ago: 3, user: alice }
          - { status: blocked, ref: develop, user: bob }
      - { name: review/old-branch, updated_days_ago: 40 }
      - { name: review/gone, state: stopped }
    pipelines:
      - user: alice
        jobs:
          - { name: build, stage: build, duration: 2, log: "compiling\\nbuilt app" }
          - name: deploy
            stage: deploy
            trigger:
              project: acme/platform/deployer
              jobs:
                - { name: rollout, stage: deploy, status: failed, duration: 3, log: "rolling out\\nERROR: health check failed on web-2" }
      - ref: develop
        jobs:
          - { name: lint, stage: lint, status: failed, duration: 1 }
          - { name: unit, stage: test }
          - name: docs
            stage: test
            trigger: { jobs: [{ name: pages, stage: build }] }
  - path: deployer
    namespace: acme/platform
`;

describe('a scenario loaded into the sandbox', () => {
  const clock = new TestClock();
  let sb: Sandbox;
  let t0 = 0;
  const get = async (path: string) => (await req(sb.url, `/api/v4${path}`, { token: sb.tokens.admin })).json as never;
  const status = async (path: string) => ((await get(path)) as { status: string }).status;
  const log = async (project: number, job: number) =>
    (await req(sb.url, `/api/v4/projects/${project}/jobs/${job}/trace`, { token: sb.tokens.admin })).text;

  beforeAll(async () => {
    const parsed = parseScenario(WORLD, 'world.yml');
    if (!parsed.ok) throw new Error(parsed.mistakes.join('\n'));
    t0 = clock.now();
    sb = await startTestSandbox({ scenario: parsed.scenario, clock: clock.now });
  });
  afterAll(() => sb.close());

  it('has the users, nested groups, members, projects, files, branches, variables and schedules, and nothing seeded', async () => {
    const users = (await get('/users?order_by=id&sort=asc')) as Array<{ id: number; username: string }>;
    expect(users.map((u) => [u.id, u.username])).toEqual([
      [1, 'root'],
      [2, 'jdoe'],
      [3, 'alice'],
      [4, 'bob'],
    ]);
    const groups = (await get('/groups?all_available=true')) as Array<{ full_path: string; visibility: string }>;
    expect(groups.map((g) => [g.full_path, g.visibility])).toEqual([
      ['acme', 'internal'],
      ['acme/platform', 'private'],
    ]);
    const members = (await get('/groups/acme%2Fplatform/members/all')) as Array<{ username: string; access_level: number }>;
    expect(members.map((m) => [m.username, m.access_level]).sort()).toEqual([
      ['alice', 30],
      ['bob', 40],
    ]);
    const projects = (await get('/projects?order_by=id&sort=asc')) as Array<{ id: number; path_with_namespace: string }>;
    expect(projects.map((p) => [p.id, p.path_with_namespace])).toEqual([
      [1, 'acme/app'],
      [2, 'acme/platform/deployer'],
    ]);
    const branches = (await get('/projects/1/repository/branches')) as Array<{ name: string }>;
    expect(branches.map((b) => b.name)).toEqual(['develop', 'main']);
    const ci = await req(sb.url, '/api/v4/projects/1/repository/files/.gitlab-ci.yml/raw?ref=main', { token: sb.tokens.admin });
    expect(ci.text).toBe('build: { script: make }\n');
    const variables = (await get('/projects/1/variables')) as Array<{ key: string; value: string; protected: boolean }>;
    expect(variables.map((v) => [v.key, v.value, v.protected])).toEqual([['DEPLOY_TARGET', 'staging', true]]);
    const groupVariables = (await get('/groups/acme/variables')) as Array<{ key: string }>;
    expect(groupVariables.map((v) => v.key)).toEqual(['REGISTRY']);
    const schedules = (await get('/projects/1/pipeline_schedules')) as Array<{ id: number; ref: string; owner: { username: string } }>;
    expect(schedules.map((s) => [s.id, s.ref, s.owner.username])).toEqual([[1, 'develop', 'alice']]);
    const environments = (await get('/projects/1/environments')) as Array<{
      name: string;
      state: string;
      tier: string;
      updated_at: string;
    }>;
    expect(environments.map((e) => [e.name, e.state, e.tier])).toEqual([
      ['production', 'available', 'production'],
      ['review/old-branch', 'available', 'development'],
      ['review/gone', 'stopped', 'development'],
    ]);
    expect(environments[1]!.updated_at).toBe(new Date(t0 - 40 * 86_400_000).toISOString());
    const protectedEnvs = (await get('/projects/1/protected_environments')) as Array<{ name: string; required_approval_count: number }>;
    expect(protectedEnvs.map((e) => [e.name, e.required_approval_count])).toEqual([['production', 2]]);
  });

  it('has the deployments of an environment, oldest first, the last one its last_deployment', async () => {
    const heads = await Promise.all(
      ['main', 'develop'].map(async (b) => ((await get(`/projects/1/repository/branches/${b}`)) as { commit: { id: string } }).commit.id),
    );
    const deployments = (await get('/projects/1/deployments')) as Array<Record<string, unknown>>;
    expect(
      deployments.map((d) => [
        d.iid,
        d.status,
        d.ref,
        d.sha,
        (d.user as { username: string }).username,
        d.created_at,
        (d.environment as { name: string }).name,
        d.deployable,
      ]),
    ).toEqual([
      [1, 'success', 'main', heads[0], 'alice', new Date(t0 - 3 * 86_400_000).toISOString(), 'production', null],
      [2, 'blocked', 'develop', heads[1], 'bob', new Date(t0).toISOString(), 'production', null],
    ]);
    const production = (await get(`/projects/1/environments/${(deployments[0]!.environment as { id: number }).id}`)) as {
      last_deployment: { id: number; status: string };
    };
    expect([production.last_deployment.id, production.last_deployment.status]).toEqual([deployments[1]!.id, 'blocked']);
    const approval = await req(sb.url, `/api/v4/projects/1/deployments/${deployments[1]!.id}/approval`, {
      token: sb.tokens.admin,
      method: 'POST',
      json: { status: 'approved' },
    });
    expect(approval.status).toBe(201);
    const waiting = (await get(`/projects/1/deployments/${deployments[1]!.id}`)) as { status: string; pending_approval_count: number };
    expect([waiting.status, waiting.pending_approval_count]).toEqual(['blocked', 1]);
  });

  it('runs the pipelines on the sandbox clock: stages in order, the downstream pipeline fails in its job with its log', async () => {
    // Ids: pipeline 1 (build = job 1, bridge 2) starts pipeline 2 (rollout = job 3); pipeline 3
    // (lint 4, unit 5, bridge 6) starts child pipeline 4 (pages 7).
    expect(await status('/projects/1/pipelines/1')).toBe('created');
    clock.advance(t0 + 1100 - clock.now());
    expect(await status('/projects/1/jobs/1')).toBe('running');
    expect(await log(1, 1)).not.toContain('built app');
    clock.advance(t0 + 2150 - clock.now());
    expect(await status('/projects/1/jobs/1')).toBe('success');
    const bridges = (await get('/projects/1/pipelines/1/bridges')) as Array<{
      id: number;
      status: string;
      downstream_pipeline: { id: number; source: string };
    }>;
    expect(bridges.map((b) => [b.id, b.status, b.downstream_pipeline.id, b.downstream_pipeline.source])).toEqual([
      [2, 'running', 2, 'pipeline'],
    ]);
    expect(await status('/projects/1/pipelines/1')).toBe('running');
    clock.advance(t0 + 5200 - clock.now());
    expect(await status('/projects/2/jobs/3')).toBe('failed');
    expect(await status('/projects/2/pipelines/2')).toBe('failed');
    expect(await status('/projects/1/pipelines/1')).toBe('failed');
    const lines = (await log(2, 3)).split('\n');
    expect(lines.slice(-5)).toEqual([
      'rolling out',
      'ERROR: health check failed on web-2',
      expect.stringMatching(/^section_end:\d+:step_script\r\u001b\[0K$/),
      '\u001b[31;1mERROR: Job failed: exit code 1\u001b[0;m',
      '',
    ]);
  });

  it('skips the stages after a failed one, and lists a child pipeline only by its source', async () => {
    const jobs = (await get('/projects/1/pipelines/3/jobs')) as Array<{ id: number; name: string; status: string }>;
    expect(jobs.map((j) => [j.id, j.name, j.status])).toEqual([
      [4, 'lint', 'failed'],
      [5, 'unit', 'skipped'],
    ]);
    const pipeline = (await get('/projects/1/pipelines/3')) as { status: string; ref: string; source: string };
    expect([pipeline.status, pipeline.ref, pipeline.source]).toEqual(['failed', 'develop', 'push']);
    const listed = (await get('/projects/1/pipelines')) as Array<{ id: number }>;
    expect(listed.map((p) => p.id)).toEqual([3, 1]);
    const children = (await get('/projects/1/pipelines?source=parent_pipeline')) as Array<{ id: number; status: string }>;
    expect(children.map((p) => [p.id, p.status])).toEqual([[4, 'success']]);
  });
});

describe('scenario validation', () => {
  it('reports every mistake of shape on its own line with file, line and field path', () => {
    const text = [
      'users:', //                                    1
      '  - username: alice', //                       2
      '    admin: maybe', //                          3
      'groups:', //                                   4
      '  - name: No path', //                         5
      'projects:', //                                 6
      '  - path: app', //                             7
      '    namespace: acme', //                       8
      '    colour: blue', //                          9
      '    pipelines:', //                            10
      '      - jobs:', //                             11
      '          - name: ""', //                      12
      '            stage: build', //                  13
      '            status: passed', //                14
      '            duration: -1', //                  15
      '            queued: 90000', //                 16
      '    members: [{ user: alice, role: boss }]', // 17
      '    variables: [{ key: "bad key", value: x }]', // 18
      'runners: 3', //                                19
    ].join('\n');
    const result = parseScenario(text, 'scenario.yml');
    expect(result).toEqual({
      ok: false,
      mistakes: [
        'scenario.yml:3: users[0].admin: must be true or false',
        'scenario.yml:5: groups[0].path: is required',
        'scenario.yml:9: projects[0].colour: is not a known field (known: path, namespace, name, description, visibility, files, branches, members, variables, schedules, environments, pipelines)',
        'scenario.yml:12: projects[0].pipelines[0].jobs[0].name: must not be empty',
        'scenario.yml:14: projects[0].pipelines[0].jobs[0].status: must be one of success, failed',
        'scenario.yml:15: projects[0].pipelines[0].jobs[0].duration: must be at least 0',
        'scenario.yml:16: projects[0].pipelines[0].jobs[0].queued: must be at most 86400',
        'scenario.yml:17: projects[0].members[0].role: must be one of guest, planner, reporter, developer, maintainer, owner',
        'scenario.yml:18: projects[0].variables[0].key: must match ^[A-Za-z0-9_]+$',
        'scenario.yml:19: runners: is not a known field (known: users, groups, projects)',
      ],
    });
  });

  it('then reports every name that does not resolve or is given twice, and values the service refuses', () => {
    const text = [
      'users: [{ username: alice }, { username: Alice }]', // 1
      'groups: [{ path: acme }]', //                          2
      'projects:', //                                         3
      '  - path: app', //                                     4
      '    namespace: nowhere', //                            5
      '  - path: web', //                                     6
      '    namespace: acme', //                               7
      '    members: [{ user: carol, role: guest }]', //       8
      '    variables: [{ key: TOKEN, value: short, masked: true }]', // 9
      '    schedules:', //                                    10
      '      - { description: nightly, cron: "every night", ref: release, cron_timezone: Mars/Base, owner: nobody }', // 11
      '    pipelines:', //                                    12
      '      - ref: develop', //                              13
      '        jobs:', //                                     14
      '          - { name: build, stage: build }', //         15
      '          - { name: build, stage: test }', //          16
      '          - name: deploy', //                          17
      '            stage: deploy', //                         18
      '            status: failed', //                        19
      '            trigger: { project: acme/other, jobs: [] }', // 20
      '      - { user: nobody, jobs: [] }', //             21
      '    environments:', //                                 22
      '      - name: production', //                          23
      '        deployments: [{ ref: release, user: nobody }]', // 24
    ].join('\n');
    expect(parseScenario(text, 'w.yml')).toEqual({
      ok: false,
      mistakes: [
        "w.yml:1: users[1].username: user 'Alice' is given twice",
        "w.yml:5: projects[0].namespace: no group or user 'nowhere' in the scenario",
        "w.yml:8: projects[1].members[0].user: no user 'carol' in the scenario (nor root, jdoe)",
        'w.yml:9: projects[1].variables[0].value: a masked value needs 8 or more characters of A-Z a-z 0-9 _ + = / @ : . ~ -',
        "w.yml:11: projects[1].schedules[0].ref: no branch 'release' in project 'acme/web'",
        'w.yml:11: projects[1].schedules[0].cron: is not a valid cron expression',
        'w.yml:11: projects[1].schedules[0].cron_timezone: is not a known time zone',
        "w.yml:11: projects[1].schedules[0].owner: no user 'nobody' in the scenario (nor root, jdoe)",
        "w.yml:13: projects[1].pipelines[0].ref: no branch 'develop' in project 'acme/web'",
        "w.yml:16: projects[1].pipelines[0].jobs[1].name: job 'build' is given twice",
        'w.yml:19: projects[1].pipelines[0].jobs[2].status: a trigger job ends as its downstream pipeline ends: leave it out',
        "w.yml:20: projects[1].pipelines[0].jobs[2].trigger.project: no project 'acme/other' in the scenario",
        "w.yml:21: projects[1].pipelines[1].user: no user 'nobody' in the scenario (nor root, jdoe)",
        'w.yml:21: projects[1].pipelines[1].jobs: needs at least one job',
        "w.yml:24: projects[1].environments[0].deployments[0].ref: no branch 'release' in project 'acme/web'",
        "w.yml:24: projects[1].environments[0].deployments[0].user: no user 'nobody' in the scenario (nor root, jdoe)",
      ],
    });
  });

  it('reports a file that is not YAML (or JSON) with its line', () => {
    expect(parseScenario('{"users": [\n  {"username": "a"},\n  oops\n', 'w.json')).toEqual({
      ok: false,
      mistakes: ['w.json:4: Flow sequence in block collection must be sufficiently indented and end with a ]'],
    });
    expect(parseScenario('users: []\nusers: []\n', 'w.yml')).toEqual({ ok: false, mistakes: ['w.yml:2: Map keys must be unique'] });
  });
});

describe('svc sandbox --scenario and --scenario-schema', () => {
  afterAll(() => cleanupTempDirs());

  it('refuses a scenario with mistakes before starting: each on its own line, exit 2', async () => {
    const file = join(tempDir(), 'scenario.yml');
    writeFileSync(file, 'projects:\n  - path: app\n    pipelines: yes\n');
    const r = await svc(['sandbox', '--scenario', file, '--port', '0']);
    expect(r).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: ${file}:2: projects[0].namespace: is required\nsvc: ${file}:3: projects[0].pipelines: must be a list\n`,
    });
    const missing = await svc(['sandbox', '--scenario', join(tempDir(), 'none.yml')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toMatch(/^svc: sandbox: cannot read the scenario file .*none\.yml: ENOENT\n$/);
  });

  it('prints the JSON Schema (draft 2020-12) the validator reads', async () => {
    const r = await svc(['sandbox', '--scenario-schema']);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe('');
    const schema = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(schema).toEqual(JSON.parse(JSON.stringify(SCENARIO_SCHEMA)));
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    // Every $ref the schema makes resolves within it.
    const refs = [...r.stdout.matchAll(/"\$ref": "#\/\$defs\/(\w+)"/g)].map((m) => m[1]);
    expect(new Set(refs)).toEqual(new Set(['group', 'job', 'pipeline', 'downstream']));
    for (const ref of refs) expect((schema.$defs as Record<string, unknown>)[ref!]).toBeDefined();
  });
});
