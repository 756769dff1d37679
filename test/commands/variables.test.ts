import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/harness.js';
import { onlyRequest, useSandbox } from './support.js';

const suite = useSandbox({ projects: 10 });
const dir = tempDir();

describe('variables set, get, list, delete', () => {
  it('creates, then updates the same key and scope, sending the value only in the JSON body', async () => {
    const unknown = await suite.run(['variables', 'set', '--project', 'acme/nope', 'K', '--value', 'v']);
    expect(unknown.exitCode).toBe(5);
    expect(unknown.stderr).toBe('svc: GET /projects/acme%2Fnope/variables/K failed: 404 Project Not Found\n');

    const first = await suite.run(['variables', 'set', '--project', '1', 'DEPLOY_URL', '--value', 'https://a.example', '-o', 'json']);
    expect(first.exitCode).toBe(0);
    expect(first.stderr).toBe('created variable DEPLOY_URL (*) of project 1\n');
    expect(JSON.parse(first.stdout)).toEqual({
      variable_type: 'env_var',
      key: 'DEPLOY_URL',
      value: 'https://a.example',
      hidden: false,
      protected: false,
      masked: false,
      raw: false,
      environment_scope: '*',
      description: null,
    });
    expect(onlyRequest(suite, 'POST', /^\/api\/v4\/projects\/1\/variables$/).bodyJson).toEqual({
      key: 'DEPLOY_URL',
      value: 'https://a.example',
      environment_scope: '*',
    });

    const second = await suite.run(['variables', 'set', '--project', '1', 'DEPLOY_URL', '--value', 'https://b.example', '--protected']);
    expect(second.exitCode).toBe(0);
    expect(second.stderr).toBe('updated variable DEPLOY_URL (*) of project 1\n');
    const put = onlyRequest(suite, 'PUT', /^\/api\/v4\/projects\/1\/variables\/DEPLOY_URL$/);
    expect(put.bodyJson).toEqual({ value: 'https://b.example', protected: true, filter: { environment_scope: '*' } });
    expect(onlyRequest(suite, 'GET', /DEPLOY_URL/).rawPath).toBe('/api/v4/projects/1/variables/DEPLOY_URL');
  });

  it('keeps the same key in two environment scopes apart', async () => {
    for (const [scope, value] of [
      ['production', 'p-value'],
      ['staging', 's-value'],
    ]) {
      const r = await suite.run([
        'variables',
        'set',
        '--project',
        '2',
        'URL',
        '--value',
        value as string,
        '--environment-scope',
        scope as string,
      ]);
      expect(r.exitCode).toBe(0);
      expect(r.stderr).toBe(`created variable URL (${scope}) of project 2\n`);
    }
    const ambiguous = await suite.run(['variables', 'get', '--project', '2', 'URL']);
    expect(ambiguous.exitCode).toBe(6);
    expect(ambiguous.stderr).toBe('svc: URL is set in several environment scopes of project 2: name one with --environment-scope\n');
    const ambiguousDelete = await suite.run(['variables', 'delete', '--project', '2', 'URL']);
    expect(ambiguousDelete.exitCode).toBe(6);
    expect(ambiguousDelete.stderr).toBe('svc: URL is set in several environment scopes of project 2: name one with --environment-scope\n');
    const staging = await suite.run([
      'variables',
      'get',
      '--project',
      '2',
      'URL',
      '--environment-scope',
      'staging',
      '--fields',
      'value',
      '-o',
      'tsv',
    ]);
    expect(staging.stdout).toBe('value\ns-value\n');
    const deleted = await suite.run(['variables', 'delete', '--project', '2', 'URL', '--environment-scope', 'production']);
    expect(deleted.exitCode).toBe(0);
    expect(deleted.stdout).toBe('');
    expect(deleted.stderr).toBe('deleted variable URL (production) of project 2\n');
    const list = await suite.run(['variables', 'list', '--project', '2', '--fields', 'key,environment_scope,value', '-o', 'tsv']);
    expect(list.stdout).toBe('key\tenvironment_scope\tvalue\nURL\tstaging\ts-value\n');
  });

  it('never prints a masked value unless --show-values, nor a hidden one, nor either in --debug output', async () => {
    const secret = 'masked-secret-1';
    const hidden = 'hidden-secret-2';
    const file = join(dir, 'secret.txt');
    writeFileSync(file, hidden);
    const setMasked = await suite.run(['variables', 'set', '--project', '3', 'TOKEN', '--masked', '--debug', '-o', 'json'], {
      input: `${secret}\n`,
      secrets: [secret],
    });
    expect(setMasked.exitCode).toBe(0);
    expect(JSON.parse(setMasked.stdout).value).toBe('[masked]');
    expect(onlyRequest(suite, 'POST', /variables$/).bodyJson).toMatchObject({ value: secret, masked: true });
    const setHidden = await suite.run(['variables', 'set', '--project', '3', 'HID', '--hidden', '--value-file', file, '--debug'], {
      secrets: [hidden],
    });
    expect(setHidden.exitCode).toBe(0);
    expect(onlyRequest(suite, 'POST', /variables$/).bodyJson).toMatchObject({ value: hidden, masked_and_hidden: true });

    const list = await suite.run(['variables', 'list', '--project', '3', '--fields', 'key,value', '-o', 'tsv', '--debug'], {
      secrets: [secret, hidden],
    });
    expect(list.stdout).toBe('key\tvalue\nTOKEN\t[masked]\nHID\t[hidden]\n');
    const shown = await suite.run(['variables', 'get', '--project', '3', 'TOKEN', '--show-values', '--fields', 'value', '-o', 'tsv']);
    expect(shown.stdout).toBe(`value\n${secret}\n`);
    const hiddenShown = await suite.run(['variables', 'get', '--project', '3', 'HID', '--show-values', '--fields', 'value', '-o', 'tsv'], {
      secrets: [hidden],
    });
    expect(hiddenShown.stdout).toBe('value\n[hidden]\n');
    // JSON keeps the service's null for a hidden value (there is nothing to hide), and the placeholder for a masked one.
    const json = await suite.run(['variables', 'list', '--project', '3', '--fields', 'key,masked,hidden,value', '-o', 'ndjson'], {
      secrets: [secret, hidden],
    });
    expect(json.stdout).toBe(
      '{"key":"TOKEN","masked":true,"hidden":false,"value":"[masked]"}\n{"key":"HID","masked":true,"hidden":true,"value":null}\n',
    );
  });

  it('refuses to hide an existing variable, and says so before writing', async () => {
    await suite.run(['variables', 'set', '--project', '4', 'PLAIN', '--value', 'plain-value']);
    const r = await suite.run(['variables', 'set', '--project', '4', 'PLAIN', '--value', 'plain-value-2', '--hidden']);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toBe(
      'svc: PLAIN exists and is not hidden; the service hides a variable only when it is created: delete it and set it again\n',
    );
    expect(suite.requests().map((q) => q.method)).toEqual(['GET']);
  });

  it("reports the service's validation of masked values (exit 6)", async () => {
    const r = await suite.run(['variables', 'set', '--project', '4', 'SHORT', '--value', 'abc', '--masked']);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toBe('svc: POST /projects/4/variables failed: 400 Bad Request: value: is invalid\n');
  });

  it('works on group and instance variables with their permissions', async () => {
    const group = await suite.run(['variables', 'set', '--group', 'acme', 'G', '--value', 'g', '--type', 'file']);
    expect(group.exitCode).toBe(0);
    expect(group.stderr).toBe('created variable G (*) of group acme\n');
    expect(onlyRequest(suite, 'POST', /variables$/).rawPath).toBe('/api/v4/groups/acme/variables');
    const instance = await suite.run(['variables', 'set', '--instance', 'I', '--value', 'i']);
    expect(instance.stderr).toBe('created variable I of the instance\n');
    expect(onlyRequest(suite, 'POST', /variables$/).bodyJson).toEqual({ key: 'I', value: 'i' });
    const denied = await suite.run(['variables', 'list', '--instance'], { token: suite.sandbox.tokens.user });
    expect(denied.exitCode).toBe(4);
    expect(denied.stderr).toBe('svc: GET /admin/ci/variables failed: 403 Forbidden\n');
    const missing = await suite.run(['variables', 'get', '--group', 'acme', 'NOPE']);
    expect(missing.exitCode).toBe(5);
    expect(missing.stderr).toBe('svc: GET /groups/acme/variables/NOPE failed: 404 GroupVariable Not Found\n');
  });

  it('refuses bad combinations before any request (exit 2)', async () => {
    const cases: Array<[string[], string]> = [
      [['variables', 'list'], 'svc: give exactly one of --project, --group or --instance\n'],
      [['variables', 'list', '--project', '1', '--group', 'acme'], 'svc: give exactly one of --project, --group or --instance\n'],
      [['variables', 'get', '--instance', 'K', '--environment-scope', 'x'], 'svc: instance variables have no environment scope\n'],
      [
        ['variables', 'set', '--project', '1', 'K', '--value', 'a', '--value-file', 'f'],
        'svc: give either --value or --value-file, not both\n',
      ],
      [['variables', 'set', '--project', '1', 'K'], 'svc: nothing on stdin; no value: give --value, --value-file, or pipe it on stdin\n'],
      [
        ['variables', 'set', '--project', '1', 'K', '--value-file', join(dir, 'missing')],
        `svc: --value-file ${join(dir, 'missing')}: no such file\n`,
      ],
    ];
    for (const [args, message] of cases) {
      const r = await suite.run(args, { input: '' });
      expect(r.stderr).toBe(message);
      expect(r.exitCode).toBe(2);
      expect(suite.requests()).toHaveLength(0);
    }
  });
});
