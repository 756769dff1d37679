import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, svc, tempDir } from '../support/harness.js';
import { json, startScriptedServer, text } from './scripted-server.js';

// A write the service made, answered with a record that lacks the fields the line on stderr names:
// the line says what was asked for, or leaves the part out, and never prints "undefined".
let server: Awaited<ReturnType<typeof startScriptedServer>>;
let url: string;
let empty: string;
const dir = tempDir('svc-hostile-lines-');
const key = join(dir, 'deploy.pub');
writeFileSync(key, 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl ci\n');

beforeAll(async () => {
  server = await startScriptedServer();
  url = server.add('bare', json(201, { id: null }));
  empty = server.add('empty', text(200, 'application/json', ''));
});
afterAll(async () => {
  await server.close();
  cleanupTempDirs();
});

describe('lines about writes answered with bare records', () => {
  it('name what was asked for, never undefined', async () => {
    const cases: Array<[string[], string]> = [
      [['labels', 'create', '--project', '1', '--name', 'bug', '--color', '#FF0000'], 'created label bug (#FF0000)'],
      [['environments', 'create', '1', '--name', 'review/x'], 'created environment review/x of project 1'],
      [['commits', 'status', '1', 'main', '--state', 'success', '--name', 'lint'], 'lint on main is success'],
      [
        ['schedules', 'create', '1', '--ref', 'main', '--cron', '0 1 * * *', '--description', 'nightly'],
        'created schedule (no id in the answer) of project 1',
      ],
      [['deploy-keys', 'add', '--project', '1', '--title', 'ci', '--key-file', key], 'added deploy key ci'],
      [['keys', 'add', '--self', '--title', 'laptop', '--key-file', key], 'added SSH key (no id in the answer)'],
      [['hooks', 'create', '--project', '1', '--hook-url', 'https://hooks.example.com/x'], 'created hook (no id in the answer)'],
      [['environments', 'stop', '1', '5'], 'stopped environment 5 of project 1'],
    ];
    for (const [args, line] of cases) {
      const result = await svc([...args, '-o', 'json'], { process: true, env: { SVC_URL: url, SVC_TOKEN: 'plain-token-0123456789' } });
      expect(result, args.join(' ')).toEqual({ exitCode: 0, stdout: '{\n  "id": null\n}\n', stderr: `${line}\n` });
    }
  });
});

describe('writes answered 200 with an empty body', () => {
  it('are done, with nothing on stdout in any format', async () => {
    const cases: Array<[string[], string]> = [
      [['schedules', 'play', '1', '2'], 'started a pipeline of schedule 2 of project 1'],
      [['labels', 'delete', 'bug', '--project', '1', '--yes'], 'deleted label bug'],
    ];
    for (const [args, line] of cases) {
      for (const format of ['json', 'ndjson', 'tsv']) {
        const result = await svc([...args, '-o', format], { process: true, env: { SVC_URL: empty, SVC_TOKEN: 'plain-token-0123456789' } });
        expect(result, `${args.join(' ')} -o ${format}`).toEqual({ exitCode: 0, stdout: '', stderr: `${line}\n` });
      }
    }
  });
});
