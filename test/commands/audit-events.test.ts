import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const user = () => ({ token: suite.sandbox.tokens.user });

beforeAll(async () => {
  // Events 1-3: the administrator updates and archives project 3; jdoe (a maintainer) updates project 2.
  expect((await suite.run(['-q', 'projects', 'update', '3', '--description', 'audited'])).exitCode).toBe(0);
  expect((await suite.run(['-q', 'projects', 'archive', '3'])).exitCode).toBe(0);
  expect((await suite.run(['-q', 'projects', 'update', '2', '--description', 'by jdoe'], user())).exitCode).toBe(0);
});

describe('audit-events list', () => {
  it("streams the instance's events newest first, by keyset pages", async () => {
    const result = await suite.run([
      'audit-events',
      'list',
      '--instance',
      '--all',
      '--per-page',
      '2',
      '-o',
      'ndjson',
      '--fields',
      'id,author_id,event_name,entity_id',
    ]);
    expect(result).toEqual({
      exitCode: 0,
      stdout: [
        '{"id":3,"author_id":2,"event_name":"project_updated","entity_id":2}',
        '{"id":2,"author_id":1,"event_name":"project_archived","entity_id":3}',
        '{"id":1,"author_id":1,"event_name":"project_updated","entity_id":3}',
        '',
      ].join('\n'),
      stderr: '',
    });
    const pages = suite.requests().filter((r) => r.rawPath === '/api/v4/audit_events');
    expect(pages.length).toBe(2);
    expect(pages[0]!.rawQuery).toBe('per_page=2&pagination=keyset');
    expect(pages[1]!.rawQuery).toMatch(/^cursor=[A-Za-z0-9+/]+&pagination=keyset&per_page=2$/);
  });

  it('sends --since, --until and --entity-type as the service names them', async () => {
    const result = await suite.run([
      'audit-events',
      'list',
      '--instance',
      '--since',
      '2020-01-01',
      '--until',
      '2999-12-31T00:00:00Z',
      '--entity-type',
      'project',
      '-o',
      'ndjson',
      '--fields',
      'id',
    ]);
    expect([result.exitCode, result.stdout]).toEqual([0, '{"id":3}\n{"id":2}\n{"id":1}\n']);
    const sent = new URLSearchParams(suite.requests()[0]!.rawQuery);
    expect([sent.get('created_after'), sent.get('created_before'), sent.get('entity_type')]).toEqual([
      '2020-01-01',
      '2999-12-31T00:00:00Z',
      'Project',
    ]);
  });

  it("filters by author (a username is looked up), and reads a project's log", async () => {
    const result = await suite.run([
      'audit-events',
      'list',
      '--project',
      '3',
      '--author',
      'root',
      '-o',
      'ndjson',
      '--fields',
      'id,event_name',
    ]);
    expect(result).toEqual({
      exitCode: 0,
      stdout: '{"id":2,"event_name":"project_archived"}\n{"id":1,"event_name":"project_updated"}\n',
      stderr: '',
    });
    expect(suite.requests().map((r) => r.rawPath)).toEqual(['/api/v4/users', '/api/v4/projects/3/audit_events']);
    const byJdoe = await suite.run(['audit-events', 'list', '--project', '3', '--author', '2', '-o', 'ndjson']);
    expect([byJdoe.exitCode, byJdoe.stdout]).toEqual([0, '']);
  });

  it('shows a maintainer the log of their project', async () => {
    const result = await suite.run(['audit-events', 'list', '--project', '2', '-o', 'ndjson', '--fields', 'id,author_id'], user());
    expect([result.exitCode, result.stdout]).toEqual([0, '{"id":3,"author_id":2}\n']);
  });

  it("refuses the instance's log to a user who is not an administrator, naming the role (exit 4)", async () => {
    const result = await suite.run(['audit-events', 'list', '--instance'], user());
    expect(result).toEqual({
      exitCode: 4,
      stdout: '',
      stderr:
        "svc: GET /audit_events failed: 403 Forbidden (the instance's audit log needs administrator access, on a licence that includes audit events)\n",
    });
  });

  it('refuses a group log to a user without a role in it (exit 4)', async () => {
    const result = await suite.run(['audit-events', 'list', '--group', '4'], user());
    expect(result).toEqual({
      exitCode: 4,
      stdout: '',
      stderr:
        'svc: GET /groups/4/audit_events failed: 403 Forbidden (this audit log needs at least the developer role, on a licence that includes audit events)\n',
    });
  });

  it('needs exactly one scope, --entity-type only with --instance, and real times (exit 2)', async () => {
    const none = await suite.run(['audit-events', 'list']);
    const two = await suite.run(['audit-events', 'list', '--instance', '--project', '3']);
    const scoped = await suite.run(['audit-events', 'list', '--project', '3', '--entity-type', 'user']);
    const time = await suite.run(['audit-events', 'list', '--instance', '--since', 'yesterday']);
    expect([none, two, scoped, time].map((r) => [r.exitCode, r.stderr])).toEqual([
      [2, 'svc: give one of: --instance, --group GROUP or --project PROJECT (whose audit log to read)\n'],
      [2, 'svc: give one of: --instance, --group GROUP or --project PROJECT (whose audit log to read)\n'],
      [2, 'svc: --entity-type applies to the instance log only (--instance)\n'],
      [
        2,
        "svc: error: option '--since <time>' argument 'yesterday' is invalid. --since must be an ISO 8601 date or time, such as 2026-01-31 or 2026-01-31T12:00:00Z\n",
      ],
    ]);
    expect(suite.requests()).toEqual([]);
  });
});
