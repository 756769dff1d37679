// Routes real clients reach beyond the resources svc manages: lib/api/metadata.rb, markdown.rb,
// templates.rb (entities template.rb, template_list.rb, license.rb), topics.rb (Projects::TopicsFinder),
// projects.rb (`star`, `unstar`, `starrers`, `forks`, `languages`), users.rb (`starred_projects`,
// emails, status), repositories.rb (`blobs`, `merge_base`, `contributors`) and files.rb (`blame`).
// The sandbox's choices where the references are silent are in src/sandbox/README.md.
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';
import { TestClock } from '../../support/clock.js';

const clock = new TestClock();
const c = useSandbox({ projects: 10, clock: clock.now });
const post = (path: string, json: Record<string, unknown>, as: 'admin' | 'user' = 'admin') => c.call(path, { as, method: 'POST', json });

describe('instance information', () => {
  it('GET /metadata answers the Metadata entity to any signed-in caller, 401 to none', async () => {
    const r = await c.call('/metadata', { as: 'readApi' });
    expect([r.status, r.json]).toEqual([
      200,
      {
        version: '17.8.1-ee',
        revision: 'sandbox',
        kas: { enabled: false, externalUrl: null, externalK8sProxyUrl: null, version: null },
        enterprise: true,
      },
    ]);
    expect((await c.call('/metadata')).status).toBe(401);
  });

  it('POST /markdown renders with the gfm source positions, needs text, a readable project, and a caller', async () => {
    const r = await post('/markdown', { text: '# Title\n\nsome **bold** and `code`', gfm: true });
    expect([r.status, r.json]).toEqual([
      201,
      {
        html: '<h1 data-sourcepos="1:1-1:7" dir="auto">Title</h1>\n<p data-sourcepos="3:1-3:24" dir="auto">some <strong>bold</strong> and <code>code</code></p>',
      },
    ]);
    expect((await post('/markdown', { text: 'a <b>' })).json).toEqual({ html: '<p>a &lt;b&gt;</p>' });
    expect([(await post('/markdown', {})).json]).toEqual([{ error: 'text is missing' }]);
    const hidden = await post('/markdown', { text: 'x', project: 'nowhere/none' });
    expect([hidden.status, hidden.json]).toEqual([404, { message: '404 Project Not Found' }]);
    expect((await c.call('/markdown', { method: 'POST', json: { text: 'x' } })).status).toBe(401);
  });

  it('GET /templates/:type lists keys and names, paged, without signing in; a name gives its content', async () => {
    const list = await c.call('/templates/gitignores?per_page=2');
    expect([list.status, list.headers['x-total'], list.json]).toEqual([
      200,
      '4',
      [
        { key: 'Go', name: 'Go' },
        { key: 'Node', name: 'Node' },
      ],
    ]);
    const one = await c.call('/templates/gitlab_ci_ymls/Bash');
    expect(one.json).toEqual({
      name: 'Bash',
      content: 'image: busybox:latest\n\nbuild1:\n  stage: build\n  script:\n    - echo "Do your build here"\n',
    });
    expect((await c.call('/templates/dockerfiles/Nope')).json).toEqual({ message: '404 dockerfile Not Found' });
    expect((await c.call('/templates/licenses/nope')).json).toEqual({ message: '404 License Not Found' });
  });

  it('GET /templates/licenses keeps the featured ones with popular, and fills in the year and the name', async () => {
    const popular = await c.call('/templates/licenses?popular=true');
    expect(popular.json.map((l: { key: string }) => l.key)).toEqual(['apache-2.0', 'gpl-3.0', 'mit']);
    const mit = await c.call('/templates/licenses/mit?fullname=Jo%20Doe');
    const year = new Date(clock.now()).getUTCFullYear();
    expect(mit.json.content.split('\n').slice(0, 3)).toEqual(['MIT License', '', `Copyright (c) ${year} Jo Doe`]);
    const gpl = await c.call('/templates/licenses/gpl-3.0?project=demo', { as: 'admin' });
    expect(gpl.json.content.split('\n').slice(0, 2)).toEqual(['    demo', `    Copyright (C) ${year}  Administrator`]);
  });
});

describe('topics', () => {
  it('lists by projects tagged, most first; an administrator creates, renames, merges and deletes', async () => {
    const list = await c.call('/topics');
    expect(list.json.map((t: { name: string; total_projects_count: number }) => [t.name, t.total_projects_count])).toEqual([
      ['web', 2],
      ['api', 1],
      ['cli', 1],
      ['tools', 1],
      ['infra', 0],
    ]);
    expect((await c.call('/topics?without_projects=true')).json.map((t: { name: string }) => t.name)).toEqual(['infra']);
    expect((await post('/topics', { name: 'ops', title: 'Ops' }, 'user')).status).toBe(403);
    expect((await post('/topics', { name: 'ops' })).json).toEqual({ error: 'title is missing' });
    expect((await post('/topics', { name: 'API', title: 'x' })).json).toEqual({ message: { name: ['has already been taken'] } });
    const made = await post('/topics', { name: 'ops', title: 'Ops', description: 'Operations' });
    expect([made.status, made.json]).toEqual([
      201,
      { id: 6, name: 'ops', title: 'Ops', description: 'Operations', total_projects_count: 0, organization_id: 1, avatar_url: null },
    ]);
    const merged = await post('/topics/merge', { source_topic_id: 2, target_topic_id: 6 });
    expect([merged.status, merged.json.name, merged.json.total_projects_count]).toEqual([201, 'ops', 1]);
    expect((await c.call('/topics/2')).json).toEqual({ message: '404 Not found' });
    expect((await c.call('/topics/6', { as: 'admin', method: 'DELETE' })).status).toBe(204);
  });
});

describe('stars, forks and languages', () => {
  it('stars once (201 with the project, then 304), lists starrers newest first, and unstars', async () => {
    const before = (await c.call('/projects/2', { as: 'user' })).json.star_count as number;
    const starred = await post('/projects/2/star', {}, 'user');
    expect([starred.status, starred.json.star_count]).toEqual([201, before + 1]);
    const again = await post('/projects/2/star', {}, 'user');
    expect([again.status, again.text]).toEqual([304, '']);
    const starrers = await c.call('/projects/2/starrers?per_page=1', { as: 'user' });
    expect([starrers.headers['x-total'], starrers.json[0].user.id, starrers.json[0].starred_since]).toEqual([
      String(before + 1),
      2,
      new Date(clock.now()).toISOString(),
    ]);
    expect((await c.call('/users/2/starred_projects', { as: 'user' })).json.map((p: { id: number }) => p.id)).toEqual([2]);
    expect((await post('/projects/2/unstar', {}, 'user')).json.star_count).toBe(before);
    expect((await post('/projects/2/unstar', {}, 'user')).status).toBe(304);
  });

  it('lists the forks of a project, and the languages of its default branch', async () => {
    expect((await c.call('/projects/3/forks', { as: 'admin' })).json).toEqual([]);
    const fork = await post('/projects/3/fork', { namespace_path: 'root', path: 'fork-of-3', name: 'fork-of-3' });
    const forks = await c.call('/projects/3/forks', { as: 'admin' });
    expect([forks.headers['x-total'], forks.json.map((p: { id: number }) => p.id)]).toEqual(['1', [fork.json.id]]);
    const langs = await c.call('/projects/1/languages', { as: 'user' });
    expect(Object.keys(langs.json)).toEqual(['Markdown', 'YAML', 'TypeScript']);
    expect(Object.values(langs.json as Record<string, number>).reduce((a, b) => a + b, 0)).toBeCloseTo(100, 1);
  });
});

describe('repository reads', () => {
  it('reads a blob by its id, raw or base64, and answers 404 Blob Not Found for another', async () => {
    const file = await c.call('/projects/1/repository/files/README.md?ref=main', { as: 'user' });
    const blob = await c.call(`/projects/1/repository/blobs/${file.json.blob_id}`, { as: 'user' });
    expect(blob.json).toEqual({ size: file.json.size, encoding: 'base64', content: file.json.content, sha: file.json.blob_id });
    const raw = await c.call(`/projects/1/repository/blobs/${file.json.blob_id}/raw`, { as: 'user' });
    expect([raw.headers['content-type'], raw.buf.toString('base64')]).toEqual(['text/plain; charset=utf-8', file.json.content]);
    expect((await c.call(`/projects/1/repository/blobs/${'0'.repeat(40)}`, { as: 'user' })).json).toEqual({
      message: '404 Blob Not Found',
    });
  });

  it('finds the merge base of two refs, with the service texts for too few and unknown refs', async () => {
    const main = (await c.call('/projects/1/repository/commits?ref_name=main&per_page=100', { as: 'user' })).json as Array<{ id: string }>;
    const base = await c.call('/projects/1/repository/merge_base?refs[]=main&refs[]=develop', { as: 'user' });
    expect(base.status).toBe(200);
    expect(main.map((x) => x.id)).toContain(base.json.id);
    const develop = (await c.call('/projects/1/repository/commits?ref_name=develop&per_page=100', { as: 'user' })).json as Array<{
      id: string;
    }>;
    expect(develop.find((x) => main.some((m) => m.id === x.id))!.id).toBe(base.json.id);
    expect((await c.call('/projects/1/repository/merge_base?refs[]=main', { as: 'user' })).json).toEqual({
      message: 'Provide at least 2 refs',
    });
    expect((await c.call('/projects/1/repository/merge_base?refs[]=main&refs[]=x&refs[]=y', { as: 'user' })).json).toEqual({
      message: 'Could not find refs: x, y',
    });
  });

  it('lists contributors of the default branch by commits, and blames a file at a ref', async () => {
    const list = await c.call('/projects/1/repository/contributors?order_by=name&sort=desc', { as: 'user' });
    expect(list.json.map((x: { name: string }) => x.name)).toEqual(['Jane Doe', 'Build Bot', 'Administrator']);
    const commits = (await c.call('/projects/1/repository/commits?ref_name=main&per_page=100', { as: 'user' })).json as unknown[];
    expect(list.json.reduce((n: number, x: { commits: number }) => n + x.commits, 0)).toBe(commits.length);
    const blame = await c.call('/projects/1/repository/files/src%2Flib%2Futil.ts/blame?ref=main', { as: 'user' });
    expect(blame.json[0].lines).toEqual(['export function add(a: number, b: number): number {', '  return a + b;', '}']);
    expect(Object.keys(blame.json[0].commit)).toEqual([
      'id',
      'parent_ids',
      'message',
      'authored_date',
      'author_name',
      'author_email',
      'committed_date',
      'committer_name',
      'committer_email',
    ]);
    expect((await c.call('/projects/1/repository/files/README.md/blame', { as: 'user' })).json).toEqual({ error: 'ref is missing' });
  });
});

describe('emails and status', () => {
  it('adds, lists and deletes the caller’s emails with the model’s validation texts', async () => {
    const added = await post('/user/emails', { email: 'second@example.org' }, 'user');
    expect([added.status, added.json]).toEqual([201, { id: 1, email: 'second@example.org', confirmed_at: null }]);
    expect((await post('/user/emails', { email: 'SECOND@example.org' }, 'user')).json).toEqual({
      message: { email: ['has already been taken'] },
    });
    expect((await post('/user/emails', { email: 'nope' }, 'user')).json).toEqual({ message: { email: ['is invalid'] } });
    expect((await c.call('/user/emails', { as: 'user' })).json).toEqual([added.json]);
    expect((await c.call('/users/2/emails', { as: 'user' })).status).toBe(403);
    expect((await c.call('/users/2/emails', { as: 'admin' })).json).toEqual([added.json]);
    expect((await c.call('/user/emails/1', { as: 'user', method: 'DELETE' })).status).toBe(204);
    expect((await c.call('/user/emails/1', { as: 'user' })).json).toEqual({ message: '404 Email Not Found' });
  });

  it('sets a status that clears itself after its time, as PUT and PATCH do', async () => {
    const set = await c.call('/user/status', { as: 'user', method: 'PUT', json: { message: 'On leave', clear_status_after: '1_day' } });
    const clearAt = new Date(clock.now() + 86_400_000).toISOString();
    expect(set.json).toEqual({
      emoji: 'speech_balloon',
      availability: 'not_set',
      message: 'On leave',
      message_html: '<p data-sourcepos="1:1-1:8" dir="auto">On leave</p>',
      clear_status_at: clearAt,
    });
    const patched = await c.call('/user/status', { as: 'user', method: 'PATCH', json: { availability: 'busy' } });
    expect([patched.json.message, patched.json.availability]).toEqual(['On leave', 'busy']);
    clock.advance(86_400_001);
    expect((await c.call('/users/2/status')).json).toEqual({
      emoji: null,
      availability: null,
      message: null,
      message_html: null,
      clear_status_at: null,
    });
  });
});
