import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onPath } from './measure.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SVC_BIN = join(ROOT, 'bin/svc.js');
export const PEERS_DIR = process.env.SVC_SHARED_PEERS ?? resolve(ROOT, '../shared/peers');
export const GITBEAKER_DIR = process.env.SVC_PEERS_DIR ?? '/tmp/svc-peers';

function loads(command, args) {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/** Why a peer cannot run here, or undefined when it can. */
const missing = {
  svc: () => (existsSync(join(ROOT, 'dist/bundle/cli.js')) ? undefined : 'not built (npm run build)'),
  pythonCli: () => (onPath('python-gitlab') ? undefined : 'python-gitlab not installed (bench/setup-peers.sh)'),
  pythonLib: () => (loads('/usr/bin/python3', ['-c', 'import gitlab']) ? undefined : 'python3-gitlab not installed (bench/setup-peers.sh)'),
  perl: () => (onPath('gitlab-api-v4') ? undefined : 'libgitlab-api-v4-perl not installed (bench/setup-peers.sh)'),
  gitbeaker: () =>
    existsSync(join(GITBEAKER_DIR, 'node_modules/@gitbeaker/rest'))
      ? undefined
      : `@gitbeaker/rest not in ${GITBEAKER_DIR} (bench/setup-peers.sh)`,
  ruby: () =>
    existsSync('/usr/bin/ruby') && loads('/usr/bin/ruby', ['-e', 'require "gitlab"'])
      ? undefined
      : 'ruby-gitlab not installed (bench/setup-peers.sh)',
  curl: () => (onPath('curl') ? undefined : 'curl not installed'),
};

/**
 * The clients listing every project: how to run each against server B with token T, and the
 * command line a reader can paste. Peers page by keyset where they can, as svc does; the Perl
 * CLI and the Ruby gem page by offset only.
 */
export function listingClients() {
  const gbScript = join(GITBEAKER_DIR, 'gb_list_projects.mjs');
  return [
    {
      name: 'svc',
      pagination: 'keyset',
      missing: missing.svc(),
      run: (b, t) => ({
        command: process.execPath,
        args: [SVC_BIN, 'projects', 'list', '--all', '-o', 'ndjson'],
        env: { SVC_URL: b, SVC_TOKEN: t },
      }),
      shown: 'SVC_URL=$B SVC_TOKEN=$T svc projects list --all -o ndjson',
    },
    {
      name: 'bare keep-alive loop (node:http)',
      pagination: 'keyset',
      missing: undefined,
      run: (b, t) => ({ command: process.execPath, args: [join(ROOT, 'bench/floor-keepalive.js'), b, t] }),
      shown: 'node bench/floor-keepalive.js $B $T',
      keepAlive: true,
    },
    {
      name: 'bare keep-alive loop (undici)',
      pagination: 'keyset',
      missing: undefined,
      run: (b, t) => ({ command: process.execPath, args: [join(ROOT, 'bench/floor-keepalive-undici.js'), b, t] }),
      shown: 'node bench/floor-keepalive-undici.js $B $T',
      undiciLoop: true,
    },
    {
      name: 'floor (curl loop)',
      pagination: 'keyset',
      missing: missing.curl(),
      run: (b, t) => ({ command: 'bash', args: [join(ROOT, 'bench/floor-curl.sh'), b, t] }),
      shown: 'bash bench/floor-curl.sh $B $T',
      floor: true,
    },
    {
      name: 'python-gitlab 3.12 CLI',
      pagination: 'keyset',
      missing: missing.pythonCli(),
      run: (b, t) => ({
        command: 'python-gitlab',
        args: [
          '--server-url',
          b,
          '--private-token',
          t,
          '-o',
          'json',
          '--pagination',
          'keyset',
          '--order-by',
          'id',
          'project',
          'list',
          '--get-all',
          '--per-page',
          '100',
        ],
      }),
      shown:
        'python-gitlab --server-url $B --private-token $T -o json --pagination keyset --order-by id project list --get-all --per-page 100',
      pythonCli: true,
    },
    {
      name: 'python-gitlab 3.12 library',
      pagination: 'keyset',
      missing: missing.pythonLib(),
      run: (b, t) => ({ command: '/usr/bin/python3', args: [join(PEERS_DIR, 'pg_list_projects.py'), b, t, '100', 'keyset'] }),
      shown: '/usr/bin/python3 ../shared/peers/pg_list_projects.py $B $T 100 keyset',
    },
    {
      name: 'GitLab::API::v4 0.26 (Perl CLI)',
      pagination: 'offset',
      missing: missing.perl(),
      run: (b, t) => ({
        command: 'gitlab-api-v4',
        args: ['--url', `${b}/api/v4`, '--private-token', t, '--all', 'projects', 'per_page:100'],
      }),
      shown: 'gitlab-api-v4 --url $B/api/v4 --private-token $T --all projects per_page:100',
    },
    {
      name: 'gitbeaker 43 library',
      pagination: 'keyset',
      missing: missing.gitbeaker(),
      prepare: () => copyFileSync(join(PEERS_DIR, 'gb_list_projects.mjs'), gbScript),
      run: (b, t) => ({ command: process.execPath, args: [gbScript, b, t, '100', 'keyset'], cwd: GITBEAKER_DIR }),
      shown: 'node gb_list_projects.mjs $B $T 100 keyset   (in the folder holding @gitbeaker/rest)',
    },
    {
      name: 'gitlab gem 4.17 (Ruby library)',
      pagination: 'offset',
      missing: missing.ruby(),
      run: (b, t) => ({ command: '/usr/bin/ruby', args: [join(PEERS_DIR, 'rb_list_projects.rb'), `${b}/api/v4`, t, '100'] }),
      shown: '/usr/bin/ruby ../shared/peers/rb_list_projects.rb $B/api/v4 $T 100',
    },
  ];
}

export function pythonGitlabMissing() {
  return missing.pythonCli();
}
