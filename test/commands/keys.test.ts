import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dsaKeyLine, ed25519Key, gpgPublicKey } from '../support/public-keys.js';
import { addMember, useSandbox } from './support.js';

// `svc deploy-keys` (a declaration) and `svc keys` (hand-written: the collection follows --self, --user and
// --gpg) over the sandbox's keys, which answer as the service's deploy_keys.rb and users.rb
// (test/sandbox/conformance/keys.test.ts).
describe('svc deploy-keys list --instance', () => {
  const suite = useSandbox({ projects: 3 });

  it('shows the projects using each key, those that may push marked, where a project listing shows can_push', async () => {
    const path = (id: number) => suite.sandbox.state.project(id)!.fullPath;
    expect((await suite.run(['deploy-keys', 'enable', '2', '--project', '2', '-q'])).exitCode).toBe(0);
    expect((await suite.run(['deploy-keys', 'update', '2', '--project', '2', '--can-push', '-q'])).exitCode).toBe(0);
    const listed = await suite.run(['deploy-keys', 'list', '--instance', '-o', 'tsv', '--fields', 'id,title,projects']);
    expect(listed).toEqual({
      exitCode: 0,
      stdout: `id\ttitle\tprojects\n2\tci-deploy\t${path(2)} (push), ${path(1)}\n3\tfleet-readonly\t\n`,
      stderr: '',
    });
    const header = (await suite.run(['deploy-keys', 'list', '--instance', '-o', 'tsv'])).stdout.split('\n')[0];
    expect(header).toBe('id\ttitle\tfingerprint_sha256\tprojects\texpires_at');
    const json = JSON.parse((await suite.run(['deploy-keys', 'list', '--instance', '-o', 'json'])).stdout) as object[];
    expect(json.map((key) => 'projects' in key)).toEqual([false, false]);
    const project = await suite.run(['deploy-keys', 'list', '--project', '2', '-o', 'tsv']);
    expect(project.stdout.split('\n')[0]).toBe('id\ttitle\tfingerprint_sha256\tcan_push\texpires_at');
  });
});

describe('svc deploy-keys', () => {
  const suite = useSandbox({ projects: 5 });
  const dir = mkdtempSync(join(tmpdir(), 'svc-keys-'));

  it('adds a key from a file with can_push, prints its real fingerprints, and lists the project’s keys', async () => {
    const k = ed25519Key('deployer');
    const file = join(dir, 'deploy.pub');
    writeFileSync(file, `${k.line}\n`);
    const added = await suite.run([
      'deploy-keys',
      'add',
      '--project',
      '2',
      '--title',
      'ci',
      '--key-file',
      file,
      '--can-push',
      '-o',
      'json',
    ]);
    expect(added.exitCode).toBe(0);
    const record = JSON.parse(added.stdout);
    expect(added.stderr).toBe(`added deploy key ${record.id} (${k.sha256})\n`);
    expect(record).toEqual({
      id: record.id,
      title: 'ci',
      created_at: record.created_at,
      expires_at: null,
      key: k.line,
      usage_type: 'auth_and_signing',
      fingerprint: k.md5,
      fingerprint_sha256: k.sha256,
      can_push: true,
    });
    expect(suite.requests().map((r) => [r.method, r.rawPath, r.bodyJson])).toEqual([
      ['POST', '/api/v4/projects/2/deploy_keys', { key: k.line, title: 'ci', can_push: true }],
    ]);
    const listed = await suite.run(['deploy-keys', 'list', '--project', '2', '-o', 'tsv', '--fields', 'title,can_push']);
    expect(listed.stdout).toBe('title\tcan_push\nci\ttrue\n');
  });

  it('reads the key from stdin; the instance’s keys are an administrator’s; a duplicate is exit 6 with the service’s words', async () => {
    const k = ed25519Key();
    const instance = await suite.run(['deploy-keys', 'add', '--instance', '--title', 'fleet-2', '--key-file', '-', '-q'], {
      input: k.line,
    });
    expect(instance).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(suite.requests().map((r) => [r.method, r.rawPath])).toEqual([['POST', '/api/v4/deploy_keys']]);
    const twice = await suite.run(['deploy-keys', 'add', '--instance', '--title', 'again', '--key', k.line]);
    expect(twice).toEqual({
      exitCode: 6,
      stdout: '',
      stderr: 'svc: POST /deploy_keys failed: 400 Bad Request: fingerprint_sha256: has already been taken\n',
    });
    const refused = await suite.run(['deploy-keys', 'list', '--instance'], { token: suite.sandbox.tokens.user });
    expect(refused).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: GET /deploy_keys failed: 403 Forbidden (this needs the maintainer role or administrator access)\n',
    });
  });

  it('enables a public key on a project, makes it read-only, and removes it', async () => {
    const enabled = await suite.run(['deploy-keys', 'enable', '3', '--project', '2', '-o', 'json', '--fields', 'title']);
    expect(enabled).toEqual({ exitCode: 0, stdout: '{\n  "title": "fleet-readonly"\n}\n', stderr: 'enabled deploy key 3 on project 2\n' });
    const updated = await suite.run(['deploy-keys', 'update', '3', '--project', '2', '--can-push', '-q']);
    expect(updated).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(suite.requests()[0]!.bodyJson).toEqual({ can_push: true });
    const removed = await suite.run(['deploy-keys', 'delete', '3', '--project', '2', '--yes']);
    expect(removed).toEqual({ exitCode: 0, stdout: '', stderr: 'removed deploy key 3 from project 2\n' });
    const unknown = await suite.run(['deploy-keys', 'enable', '999', '--project', '2']);
    expect(unknown).toEqual({
      exitCode: 5,
      stdout: '',
      stderr: 'svc: POST /projects/2/deploy_keys/999/enable failed: 404 Deploy key Not Found\n',
    });
  });

  it('refuses before any request: a private key, no key, --instance on a project-only verb, an empty update', async () => {
    const secret = join(dir, 'id_ed25519');
    writeFileSync(secret, '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n');
    const cases: Array<[string[], string]> = [
      [
        ['deploy-keys', 'add', '--project', '1', '--title', 't', '--key-file', secret],
        'svc: that is a private key: give the public one (the .pub file, or the PUBLIC KEY BLOCK)\n',
      ],
      [['deploy-keys', 'add', '--project', '1', '--title', 't'], 'svc: no text: give --key or --key-file, or pipe it on stdin\n'],
      [['deploy-keys', 'enable', '3', '--instance'], "svc: error: unknown option '--instance'\n"],
      [['deploy-keys', 'update', '3', '--project', '1'], 'svc: give at least one of --title, --can-push (what to change)\n'],
    ];
    for (const [args, stderr] of cases) {
      expect(await suite.run(args)).toEqual({ exitCode: 2, stdout: '', stderr });
      expect(suite.requests()).toEqual([]);
    }
  });

  it('a developer is refused by the service, naming the role', async () => {
    const username = await addMember(suite, '/projects/3', 5, 30);
    const refused = await suite.run(['--sudo', username, 'deploy-keys', 'list', '--project', '3']);
    expect(refused).toEqual({
      exitCode: 4,
      stdout: '',
      stderr: 'svc: GET /projects/3/deploy_keys failed: 403 Forbidden (this needs the maintainer role or administrator access)\n',
    });
  });
});

describe('svc keys', () => {
  const suite = useSandbox({ projects: 5 });

  it('adds, lists and deletes the caller’s SSH key', async () => {
    const k = ed25519Key('me@laptop');
    const added = await suite.run(
      ['keys', 'add', '--self', '--title', 'laptop', '--key', k.line, '-o', 'json', '--fields', 'title,usage_type'],
      {
        token: suite.sandbox.tokens.user,
      },
    );
    expect(added).toEqual({
      exitCode: 0,
      stdout: '{\n  "title": "laptop",\n  "usage_type": "auth_and_signing"\n}\n',
      stderr: 'added SSH key 4\n',
    });
    const listed = await suite.run(['keys', 'list', '--self', '-o', 'tsv', '--fields', 'id,title'], { token: suite.sandbox.tokens.user });
    expect(listed.stdout).toBe('id\ttitle\n1\tjdoe-laptop\n4\tlaptop\n');
    expect(suite.requests().map((r) => r.rawPath)).toEqual(['/api/v4/user/keys']);
    const deleted = await suite.run(['keys', 'delete', '4', '--self', '--yes'], { token: suite.sandbox.tokens.user });
    expect(deleted).toEqual({ exitCode: 0, stdout: '', stderr: 'deleted SSH key 4\n' });
  });

  it('another user’s keys: anyone lists them by username, only an administrator adds (by id, looked up)', async () => {
    const k = ed25519Key();
    const refused = await suite.run(['keys', 'add', '--user', 'jdoe', '--title', 'x', '--key', k.line], {
      token: suite.sandbox.tokens.user,
    });
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).toBe('svc: POST /users/2/keys failed: 403 Forbidden (this needs administrator access)\n');
    const added = await suite.run(['keys', 'add', '--user', 'jdoe', '--title', 'x', '--key', k.line, '-q']);
    expect(added).toEqual({ exitCode: 0, stdout: '', stderr: '' });
    expect(suite.requests().map((r) => `${r.method} ${r.rawPath}?${r.rawQuery}`)).toEqual([
      'GET /api/v4/users?username=jdoe',
      'POST /api/v4/users/2/keys?',
    ]);
    const listed = await suite.run(['keys', 'list', '--user', 'jdoe', '-o', 'tsv', '--fields', 'title']);
    expect(listed.stdout).toBe('title\njdoe-laptop\nx\n');
  });

  it('GPG keys; the service’s refusals: a forbidden type, a key already taken', async () => {
    const g = gpgPublicKey('command-test');
    const added = await suite.run(['keys', 'add', '--self', '--gpg', '--key-file', '-', '-o', 'json', '--fields', 'id'], {
      input: g.armored,
    });
    expect(added.exitCode).toBe(0);
    const twice = await suite.run(['keys', 'add', '--self', '--gpg', '--key-file', '-'], { input: g.armored });
    expect(twice).toEqual({
      exitCode: 6,
      stdout: '',
      stderr:
        'svc: POST /user/gpg_keys failed: 400 Bad Request: fingerprint: has already been taken; primary_keyid: has already been taken\n',
    });
    const dsa = await suite.run(['keys', 'add', '--self', '--title', 'old', '--key', dsaKeyLine()]);
    expect(dsa).toEqual({
      exitCode: 6,
      stdout: '',
      stderr:
        'svc: POST /user/keys failed: 400 Bad Request: key: type is forbidden. Must be RSA, ECDSA, ED25519, ECDSA_SK, or ED25519_SK\n',
    });
  });

  it('refuses before any request: no --self or --user, no title for an SSH key, a title for a GPG key', async () => {
    const cases: Array<[string[], string]> = [
      [['keys', 'list'], 'svc: give --self or --user U\n'],
      [['keys', 'add', '--self', '--key', 'ssh-ed25519 AAAA'], 'svc: give --title for an SSH key\n'],
      [['keys', 'add', '--self', '--gpg', '--title', 't', '--key', 'x'], 'svc: a GPG key takes no --title, --expires-at or --usage-type\n'],
      [
        ['keys', 'delete', '4', '--user', 'jdoe'],
        'svc: Delete SSH key 4 of jdoe: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n',
      ],
    ];
    for (const [args, stderr] of cases) {
      expect(await suite.run(args)).toEqual({ exitCode: 2, stdout: '', stderr });
      expect(suite.requests()).toEqual([]);
    }
  });
});
