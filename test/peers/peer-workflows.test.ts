// The sandbox's newer routes driven by the libraries of two clients no one here wrote: python-gitlab
// (Debian's python3-gitlab) and GitLab::API::v4 (libgitlab-api-v4-perl), both installed by .ci/run.
// Each script walks create → list → update → delete for the resources it reaches and prints what it saw;
// the test checks every figure it printed. A missing peer fails the test.
import { existsSync } from 'node:fs';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cleanupTempDirs, tempDir } from '../support/harness.js';
import { startTestSandbox } from '../support/sandbox.js';

const PEER_PATH = '/usr/bin:/bin';

const PYTHON = String.raw`
import json, os
import gitlab
gl = gitlab.Gitlab(os.environ['URL'], private_token=os.environ['TOKEN'])
gl.auth()
out = {}
p = gl.projects.get(2)
b = p.badges.create({'link_url': 'https://ci.example/%{project_path}', 'image_url': 'https://img.example/b.svg', 'name': 'ci'})
out['badge_rendered'] = b.rendered_link_url
b.name = 'ci2'
b.save()
out['badges'] = [x.name for x in p.badges.list(get_all=True)]
out['badge_preview'] = p.badges.render('https://a.example/%{project_id}', 'https://b.example')['rendered_link_url']
b.delete()
out['badges_after_delete'] = len(p.badges.list(get_all=True))
s = p.snippets.create({'title': 'setup', 'file_name': 'setup.sh', 'content': 'make\n', 'visibility': 'private'})
out['snippet_raw'] = s.content().decode()
s.title = 'setup2'
s.save()
out['snippets'] = [x.title for x in p.snippets.list(get_all=True)]
s.delete()
out['snippets_after_delete'] = len(p.snippets.list(get_all=True))
t = gl.topics.create({'name': 'peer-topic', 'title': 'Peer'})
t.description = 'described'
t.save()
out['topic'] = gl.topics.get(t.id).description
t.delete()
i1 = p.issues.get(1)
i1.links.create({'target_project_id': 2, 'target_issue_iid': 2})
out['links'] = [x.iid for x in i1.links.list()]
award = i1.awardemojis.create({'name': 'tada'})
out['awards'] = [a.name for a in i1.awardemojis.list()]
award.delete()
out['estimate'] = i1.time_estimate('3h30m')
out['spent'] = i1.add_spent_time('1h')
i1.todo()
out['todos'] = len(gl.todos.list())
e = gl.user.emails.create({'email': 'peer@example.org'})
out['emails'] = [x.email for x in gl.user.emails.list()]
e.delete()
tr = p.triggers.create({'description': 'peer'})
tr.description = 'peer2'
tr.save()
out['trigger'] = p.triggers.get(tr.id).description
tr.delete()
out['search'] = [x['id'] for x in gl.search('projects', 'lynx')]
p.star()
out['star_count'] = p.star_count
p.unstar()
out['languages'] = sorted(p.languages().keys())
c = p.commits.create({'branch': 'main', 'commit_message': 'Add peer.txt', 'actions': [{'action': 'create', 'file_path': 'peer.txt', 'content': 'hi'}]})
out['revert'] = c.revert(branch='main')['title']
out['version'] = list(gl.version())
print(json.dumps(out))
`;

const PERL = String.raw`
use strict; use warnings;
use GitLab::API::v4; use JSON::PP;
my $api = GitLab::API::v4->new(url => "$ENV{URL}/api/v4", private_token => $ENV{TOKEN});
my %out;
my $b = $api->create_group_badge('acme', { link_url => 'https://g.example/%{project_id}', image_url => 'https://g.example/i.svg' });
$api->edit_group_badge('acme', $b->{id}, { name => 'group-ci' });
$out{group_badges} = [ map { $_->{name} } @{ $api->group_badges('acme') } ];
$out{project_sees} = [ map { $_->{kind} } @{ $api->project_badges(3) } ];
$api->delete_group_badge('acme', $b->{id});
$out{group_badges_after_delete} = scalar @{ $api->group_badges('acme') };
$api->set_issue_time_estimate(3, 2, { duration => '2d' });
$out{time} = $api->add_issue_spent_time(3, 2, { duration => '90m' });
$out{stats} = $api->issue_time_stats(3, 2);
my $a = $api->create_issue_award_emoji(3, 2, { name => 'rocket' });
$out{award} = $api->issue_award_emoji(3, 2, $a->{id})->{name};
$api->delete_issue_award_emoji(3, 2, $a->{id});
$out{awards_after_delete} = scalar @{ $api->issue_award_emojis(3, 2) };
my $t = $api->create_trigger(3, { description => 'perl' });
$out{triggers} = [ map { $_->{description} } @{ $api->triggers(3) } ];
$api->delete_trigger(3, $t->{id});
print JSON::PP->new->canonical->encode(\%out);
`;

function peer(binary: string, pkg: string): string {
  for (const dir of PEER_PATH.split(':')) if (existsSync(`${dir}/${binary}`)) return `${dir}/${binary}`;
  throw new Error(`${binary} is not installed; install it with: apt-get install -y ${pkg} (.ci/run does)`);
}

describe('peer libraries walk the newer sandbox routes', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox({ projects: 5 });
  });
  afterAll(async () => {
    await sandbox.close();
    cleanupTempDirs();
  });
  const run = (binary: string, args: string[]) =>
    execa(binary, args, {
      env: { PATH: PEER_PATH, HOME: tempDir('svc-peer-home-'), URL: sandbox.url, TOKEN: sandbox.tokens.admin },
      extendEnv: false,
      reject: false,
      timeout: 120_000,
    });

  it('python-gitlab: badges, project snippets, topics, issue links, awards, time, to-dos, emails, triggers, search, stars, revert', async () => {
    const python = peer('python3', 'python3-gitlab');
    const result = await run(python, ['-c', PYTHON]);
    expect([result.exitCode, result.stderr]).toEqual([0, '']);
    expect(JSON.parse(result.stdout)).toEqual({
      badge_rendered: 'https://ci.example/acme/platform/eager-lynx-2',
      badges: ['ci2'],
      badge_preview: 'https://a.example/2',
      badges_after_delete: 0,
      snippet_raw: 'make\n',
      snippets: ['setup2'],
      snippets_after_delete: 0,
      topic: 'described',
      links: [2],
      awards: ['tada'],
      estimate: { time_estimate: 12_600, total_time_spent: 0, human_time_estimate: '3h 30m', human_total_time_spent: null },
      spent: { time_estimate: 12_600, total_time_spent: 3600, human_time_estimate: '3h 30m', human_total_time_spent: '1h' },
      todos: 1,
      emails: ['peer@example.org'],
      trigger: 'peer2',
      search: [2, 3],
      star_count: 5,
      languages: ['Markdown', 'TypeScript', 'YAML'],
      revert: 'Revert "Add peer.txt"',
      version: ['17.8.1-ee', 'sandbox'],
    });
  });

  it('GitLab::API::v4: group badges seen from a project, time tracking, award emoji, triggers', async () => {
    peer('gitlab-api-v4', 'libgitlab-api-v4-perl');
    const result = await run(peer('perl', 'perl'), ['-e', PERL]);
    expect([result.exitCode, result.stderr]).toEqual([0, '']);
    expect(JSON.parse(result.stdout)).toEqual({
      group_badges: ['group-ci'],
      project_sees: ['group'],
      group_badges_after_delete: 0,
      time: { time_estimate: 57_600, total_time_spent: 5400, human_time_estimate: '2d', human_total_time_spent: '1h 30m' },
      stats: { time_estimate: 57_600, total_time_spent: 5400, human_time_estimate: '2d', human_total_time_spent: '1h 30m' },
      award: 'rocket',
      awards_after_delete: 0,
      triggers: ['perl'],
    });
  });
});
