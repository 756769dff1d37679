// Interoperability: clients that no one here wrote (installed from Debian by
// .ci/run, see ../shared/reference/peers.md) list, fetch and create projects on
// the sandbox. A missing peer fails the test: the proof must not silently vanish.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { cleanupTempDirs, svc, tempDir } from '../support/harness.js';
import { req } from '../sandbox/helpers.js';
import { sandboxEnv, startTestSandbox } from '../support/sandbox.js';

const PROJECTS = 1234;
/** The peers fall back to public hosts when a URL does not reach them, so they get only this. */
const PEER_PATH = '/usr/bin:/bin';
const PEER_TIMEOUT_MS = 120_000;

interface Peer {
  binary: string;
  debianPackage: string;
  list(url: string, token: string): string[];
  get(url: string, token: string, fullPath: string): string[];
  create(url: string, token: string, name: string, path: string): string[];
  /** Every issue of a group (subgroups included) with a label, when the peer can list them. */
  groupIssues?(url: string, token: string, group: string, labels: string): string[];
  projectPipelines?(url: string, token: string, project: string, status: string): string[];
}

const PEERS: Record<string, Peer> = {
  'python-gitlab CLI': {
    binary: 'python-gitlab',
    debianPackage: 'python3-gitlab',
    list: (url, token) => [
      '--server-url',
      url,
      '--private-token',
      token,
      '-o',
      'json',
      'project',
      'list',
      '--get-all',
      '--per-page',
      '100',
    ],
    get: (url, token, fullPath) => ['--server-url', url, '--private-token', token, '-o', 'json', 'project', 'get', '--id', fullPath],
    create: (url, token, name, path) => [
      '--server-url',
      url,
      '--private-token',
      token,
      '-o',
      'json',
      'project',
      'create',
      '--name',
      name,
      '--path',
      path,
    ],
    projectPipelines: (url, token, project, status) => [
      '--server-url',
      url,
      '--private-token',
      token,
      '-o',
      'json',
      'project-pipeline',
      'list',
      '--project-id',
      project,
      '--status',
      status,
      '--get-all',
      '--per-page',
      '100',
    ],
    groupIssues: (url, token, group, labels) => [
      '--server-url',
      url,
      '--private-token',
      token,
      '-o',
      'json',
      'group-issue',
      'list',
      '--group-id',
      group,
      '--labels',
      labels,
      '--get-all',
      '--per-page',
      '30',
    ],
  },
  'GitLab::API::v4 CLI (Perl)': {
    binary: 'gitlab-api-v4',
    debianPackage: 'libgitlab-api-v4-perl',
    list: (url, token) => ['--url', `${url}/api/v4`, '--private-token', token, '--all', 'projects', 'per_page:100'],
    get: (url, token, fullPath) => ['--url', `${url}/api/v4`, '--private-token', token, 'project', fullPath],
    create: (url, token, name, path) => [
      '--url',
      `${url}/api/v4`,
      '--private-token',
      token,
      'create_project',
      `name:${name}`,
      `path:${path}`,
    ],
  },
};

function locate(peer: Peer): string {
  for (const dir of PEER_PATH.split(delimiter)) {
    const file = join(dir, peer.binary);
    if (existsSync(file)) return file;
  }
  throw new Error(
    `peer client ${peer.binary} is not installed (looked in ${PEER_PATH}); install it with: apt-get install -y ${peer.debianPackage} (.ci/run does)`,
  );
}

/** Runs a peer with a cleared environment and an empty HOME; returns its parsed JSON stdout. */
async function runPeer(peer: Peer, args: string[], token: string): Promise<unknown> {
  const result = await execa(locate(peer), args, {
    env: { PATH: PEER_PATH, HOME: tempDir('svc-peer-home-') },
    extendEnv: false,
    reject: false,
    timeout: PEER_TIMEOUT_MS,
  });
  const what = `${peer.binary} ${args.map((a) => (a === token ? '[token]' : a)).join(' ')}`;
  expect(result.exitCode, `${what} exited ${result.exitCode}${result.timedOut ? ' (timed out)' : ''}: ${result.stderr}`).toBe(0);
  try {
    return JSON.parse(result.stdout);
  } catch {
    throw new Error(`${what} printed no JSON document: ${result.stdout.slice(0, 200)}`);
  }
}

/** A seeded project in a nested group, so its namespaced path holds two slashes. */
function nestedProject(sb: Sandbox): { id: number; fullPath: string } {
  for (let id = 4; id <= PROJECTS; id++) {
    const p = sb.state.project(id);
    if (p && p.fullPath.split('/').length >= 3) return { id, fullPath: p.fullPath };
  }
  throw new Error('the seeded data has no project in a nested group');
}

afterAll(() => cleanupTempDirs());

for (const [label, peer] of Object.entries(PEERS)) {
  describe(label, () => {
    let sb: Sandbox;

    beforeAll(async () => {
      sb = await startTestSandbox({ projects: PROJECTS });
    });
    afterAll(async () => {
      await sb.close();
    });

    it(`lists exactly ${PROJECTS} distinct projects`, async () => {
      const listed = (await runPeer(peer, peer.list(sb.url, sb.tokens.admin), sb.tokens.admin)) as Array<{ id: number }>;
      expect(Array.isArray(listed)).toBe(true);
      const ids = new Set(listed.map((p) => p.id));
      expect(listed).toHaveLength(PROJECTS);
      expect(ids.size).toBe(PROJECTS);
      expect(Math.min(...ids)).toBe(1);
      expect(Math.max(...ids)).toBe(PROJECTS);
      const pages = sb.requests().filter((r) => r.method === 'GET' && r.rawPath === '/api/v4/projects');
      expect(pages).toHaveLength(Math.ceil(PROJECTS / 100));
      expect(pages.every((r) => r.status === 200)).toBe(true);
    });

    it('fetches a project by its namespaced path', async () => {
      const { id, fullPath } = nestedProject(sb);
      sb.clearRequests();
      const project = (await runPeer(peer, peer.get(sb.url, sb.tokens.admin, fullPath), sb.tokens.admin)) as {
        id: number;
        path_with_namespace: string;
      } | null;
      expect(project, 'the peer printed null: the sandbox answered 404').not.toBeNull();
      expect(project).toMatchObject({ id, path_with_namespace: fullPath });
      const sent = sb.requests().filter((r) => r.rawPath.startsWith('/api/v4/projects/'));
      expect(sent.map((r) => r.rawPath)).toContain(`/api/v4/projects/${fullPath.split('/').join('%2F')}`);
    });

    it('creates a project that then exists in the sandbox', async () => {
      const path = `peer-${peer.binary}-made`;
      const name = `Made by ${peer.binary}`;
      const created = (await runPeer(peer, peer.create(sb.url, sb.tokens.admin, name, path), sb.tokens.admin)) as {
        id: number;
        path_with_namespace: string;
      };
      expect(created).toMatchObject({ name, path, path_with_namespace: `root/${path}` });
      const stored = sb.state.project(`root/${path}`);
      expect(stored).not.toBeNull();
      expect(stored).toMatchObject({ id: created.id, name, path });
      expect(sb.state.projectCount()).toBe(PROJECTS + 1);
    });

    const projectPipelines = peer.projectPipelines;
    if (projectPipelines) {
      it('lists the same pipelines as svc pipeline list for a status filter', async () => {
        // The first project with failed pipelines among the seeded ones.
        let project = 0;
        let failed: Array<{ id: number }> = [];
        for (let id = 1; id <= 20 && failed.length === 0; id++) {
          failed = (await req(sb.url, `/api/v4/projects/${id}/pipelines?status=failed&per_page=100`, { token: sb.tokens.admin })).json;
          project = id;
        }
        expect(failed.length).toBeGreaterThan(0);
        const mine = await svc(['pipeline', 'list', String(project), '--status', 'failed', '--all', '-o', 'json'], {
          env: sandboxEnv(sb, sb.tokens.admin),
        });
        expect(mine.stderr).toBe('');
        expect(mine.exitCode).toBe(0);
        const ours = JSON.parse(mine.stdout) as Array<{ id: number; status: string }>;
        const theirs = (await runPeer(
          peer,
          projectPipelines(sb.url, sb.tokens.admin, String(project), 'failed'),
          sb.tokens.admin,
        )) as Array<{
          id: number;
        }>;
        expect(ours.map((p) => p.id)).toEqual(failed.map((p) => p.id));
        expect(theirs.map((p) => p.id)).toEqual(ours.map((p) => p.id));
        expect(ours.every((p) => p.status === 'failed')).toBe(true);
      });
    }
    const groupIssues = peer.groupIssues;
    if (groupIssues) {
      it('lists the same issues as svc issues list for a labels filter', async () => {
        const total = Number(
          (await req(sb.url, '/api/v4/groups/acme/issues?labels=bug,backend&per_page=1', { token: sb.tokens.admin })).headers['x-total'],
        );
        const mine = await svc(
          ['issues', 'list', '--group', 'acme', '--labels', 'bug,backend', '--all', '--per-page', '30', '-o', 'json'],
          {
            env: sandboxEnv(sb, sb.tokens.admin),
          },
        );
        expect(mine.stderr).toBe('');
        expect(mine.exitCode).toBe(0);
        const ours = JSON.parse(mine.stdout) as Array<{ id: number; labels: string[] }>;
        sb.clearRequests();
        const theirs = (await runPeer(peer, groupIssues(sb.url, sb.tokens.admin, 'acme', 'bug,backend'), sb.tokens.admin)) as Array<{
          id: number;
        }>;
        expect(theirs.map((i) => i.id)).toEqual(ours.map((i) => i.id));
        expect(theirs).toEqual(ours);
        expect(ours).toHaveLength(total);
        expect(new Set(ours.map((i) => i.id)).size).toBe(total);
        expect(ours.filter((i) => i.labels.includes('bug') && i.labels.includes('backend'))).toHaveLength(total);
        const pages = sb.requests().filter((r) => r.rawPath === '/api/v4/groups/acme/issues');
        expect(pages).toHaveLength(Math.ceil(total / 30));
      });
    }
  });
}
