import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/harness.js';
import { addMember, useSandbox } from './support.js';

// `svc labels sync` gives every project of a group one label set: it reads each project's labels, plans
// per project (create, update, and with --prune delete its own labels), then writes on the client's
// throttle. Group acme holds acme/nice-lynx-3 and, in acme/platform, projects 1 and 2; every seeded project
// has bug (#d9534f, priority 1), feature, backend and documentation, and acme itself security and needs-review.
describe('svc labels sync', () => {
  const suite = useSandbox({ projects: 5 });
  const writes = () =>
    suite
      .requests()
      .filter((r) => r.method !== 'GET')
      .map((r) => `${r.method} ${r.rawPath}`);
  const file = (name: string, text: string) => {
    const path = join(tempDir(), name);
    writeFileSync(path, text);
    return path;
  };
  const yaml = file(
    'labels.yml',
    [
      '# the labels every project of acme carries',
      'labels:',
      '  - name: bug',
      "    color: '#D9534F'   # the same colour in capitals: unchanged",
      '    description: Something is broken',
      '    priority: 1',
      '  - name: incident',
      '    color: "#FF0000"',
      '    description: "Production incident: page someone"',
      '  - name: security # a group label: left alone',
      "    color: '#000000'",
      '',
    ].join('\n'),
  );
  const projects = ['acme/nice-lynx-3', 'acme/platform/eager-lynx-2', 'acme/platform/icy-tiger-1'];

  it('plans per project; the dry run sends no write, the real run exactly the plan’s writes, and then nothing is left to do', async () => {
    const args = ['labels', 'sync', '--group', 'acme', '--from-file', yaml, '--include-subgroups', '--prune', '-o', 'tsv'];
    const dry = await suite.run([...args, '--dry-run']);
    expect(dry.exitCode).toBe(0);
    const rows = projects.flatMap((p) => [
      `update\t${p}\tbug\tdescription`,
      `create\t${p}\tincident\t`,
      `delete\t${p}\tbackend\t`,
      `delete\t${p}\tdocumentation\t`,
      `delete\t${p}\tfeature\t`,
    ]);
    expect(dry.stdout).toBe(['action\tproject\tlabel\tchanges', ...rows, ''].join('\n'));
    expect(dry.stderr).toBe('dry run: 3 to create, 3 to update, 9 to delete in 3 projects of group acme; nothing changed\n');
    expect(writes()).toEqual([]);

    const unconfirmed = await suite.run(args);
    expect(unconfirmed).toEqual({
      exitCode: 2,
      stdout: dry.stdout,
      stderr:
        'svc: Delete 9 labels in 3 projects of group acme: pass --yes to confirm (stdin is not a terminal, so there is no one to ask)\n',
    });
    expect(writes()).toEqual([]);

    const real = await suite.run([...args, '--yes']);
    expect(real.exitCode).toBe(0);
    expect(real.stdout).toBe(dry.stdout);
    expect(real.stderr).toBe('3 to create, 3 to update, 9 to delete in 3 projects of group acme\napplied 15 changes of 15\n');
    const expected = projects.flatMap((p, i) => {
      const id = [3, 2, 1][i]!;
      const first = (id - 1) * 4;
      const labels = `/api/v4/projects/${encodeURIComponent(p)}/labels`;
      return [
        `PUT ${labels}/${first + 1}`,
        `POST ${labels}`,
        `DELETE ${labels}/${first + 2}`,
        `DELETE ${labels}/${first + 3}`,
        `DELETE ${labels}/${first + 4}`,
      ];
    });
    expect(writes().sort()).toEqual(expected.sort());
    const bug = suite.requests().find((r) => r.method === 'PUT')!;
    expect(JSON.parse(bug.body)).toEqual({ description: 'Something is broken' });

    const again = await suite.run([...args, '--dry-run']);
    expect(again).toEqual({
      exitCode: 0,
      stdout: '',
      stderr: `the labels of 3 projects of group acme already match ${yaml}: nothing to change\n`,
    });
  });

  it('goes on past a refusal in one project and exits 8 with each failure named', async () => {
    const guest = await addMember(suite, '/groups/1', 4, 10);
    const json = file('labels.json', JSON.stringify([{ name: 'triage', color: '#123456' }]));
    const result = await suite.run([
      'labels',
      'sync',
      '--group',
      'acme',
      '--from-file',
      json,
      '--include-subgroups',
      '-q',
      '--sudo',
      guest,
    ]);
    expect(result.exitCode).toBe(8);
    expect(writes().length).toBe(3);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toBe('svc: applied 0 changes of 3; 3 failed');
    expect(lines[0]).toMatch(
      /^warning: create triage in acme\/nice-lynx-3 failed: POST .* 403 Forbidden \(this needs the planner role or administrator access\)$/,
    );
  });

  it('reads YAML as YAML: flow mappings, a - alone on its line, folded and literal text, anchors and merge keys; and JSON', async () => {
    const forms = file(
      'forms.yml',
      [
        'team: &team',
        "  color: '#5CB85C'",
        '  priority: 2',
        'labels:',
        '  - {name: bug, color: "#D9534F"}',
        '  -',
        '    name: outage',
        "    color: '#FF0000'",
        '    description: >-',
        '      Production is down:',
        '      page someone',
        '  - name: runbook',
        "    color: '#0000FF'",
        '    description: |',
        '      Line one',
        '      Line two',
        '  - <<: *team',
        '    name: team-a',
        '  - <<: *team',
        '    name: team-b',
        '    priority: 3',
        '',
      ].join('\n'),
    );
    const args = ['labels', 'sync', '--group', 'acme', '--from-file', forms, '-o', 'tsv'];
    const dry = await suite.run([...args, '--dry-run']);
    const rows = ['outage', 'runbook', 'team-a', 'team-b'].map((label) => `create\tacme/nice-lynx-3\t${label}\t`);
    expect(dry).toEqual({
      exitCode: 0,
      stdout: ['action\tproject\tlabel\tchanges', ...rows, ''].join('\n'),
      stderr: 'dry run: 4 to create, 0 to update, 0 to delete in 1 project of group acme; nothing changed\n',
    });
    const real = await suite.run(args);
    expect([real.exitCode, real.stderr]).toEqual([
      0,
      '4 to create, 0 to update, 0 to delete in 1 project of group acme\napplied 4 changes of 4\n',
    ]);
    const created = suite
      .requests()
      .filter((r) => r.method === 'POST')
      .map((r) => r.bodyJson);
    expect(created).toEqual([
      { name: 'outage', color: '#FF0000', description: 'Production is down: page someone' },
      { name: 'runbook', color: '#0000FF', description: 'Line one\nLine two\n' },
      { name: 'team-a', color: '#5CB85C', priority: 2 },
      { name: 'team-b', color: '#5CB85C', priority: 3 },
    ]);

    const json = file(
      'labels.json',
      JSON.stringify({ labels: [{ name: 'runbook', color: '#0000ff', description: 'Line one\nLine two\n', priority: 5 }] }, null, 2),
    );
    const fromJson = await suite.run(['labels', 'sync', '--group', 'acme', '--from-file', json, '--dry-run', '-o', 'tsv']);
    expect(fromJson).toEqual({
      exitCode: 0,
      stdout: 'action\tproject\tlabel\tchanges\nupdate\tacme/nice-lynx-3\trunbook\tpriority\n',
      stderr: 'dry run: 0 to create, 1 to update, 0 to delete in 1 project of group acme; nothing changed\n',
    });
  });

  it('refuses a file it cannot use before any request, in one line naming the file (and the line, where it is the YAML)', async () => {
    const cases: Array<[string, string]> = [
      ['- name: x\n  color: red\n', ': label 1 (x): color must be #RGB or #RRGGBB'],
      [
        '- name: x\n  color: #D9534F\n',
        ": label 1 (x): color must be #RGB or #RRGGBB (quote it, as '#D9534F': a # after a space starts a YAML comment)",
      ],
      ['- name: x\n  color: "#fff"\n  owner: me\n', ': label 1: unknown key owner (name, color, description, priority)'],
      ['[{"name": "x", "color": "#fff"}, {"name": "x", "color": "#000"}]', ': label x is declared twice'],
      ['labels: [x]\n', ': label 1 is not a mapping'],
      ['labels: all of them\n', ':1: expected a list of labels, or {"labels": [...]}'],
      ['# labels\nlabel:\n  - name: x\n    color: "#fff"\n', ':2: expected a list of labels, or {"labels": [...]}'],
      ["- name: x\n  color: '#fff'\n  name: y\n", ':3: Map keys must be unique'],
      [
        "- name: x\n  color: '#fff'\n  description: [unclosed\n- name: y\n",
        ':4: Flow sequence in block collection must be sufficiently indented and end with a ]',
      ],
      ['[{"name": "x", "color": "#fff"}\n', ':2: Flow sequence must end with a ]'],
      [
        '- {name: bug, color: #D9534F}\n',
        ":2: Flow map in block collection must be sufficiently indented and end with a } (quote each colour, as '#D9534F': a # after a space starts a YAML comment)",
      ],
      ["- name: x\n  color: '#fff'\n---\n- name: y\n  color: '#000'\n", ':3: a second document (---): give the labels in one'],
      ['- name: x\n  color: *red\n', ': Unresolved alias (the anchor must be set before the alias): red'],
      [
        `a: &a [${Array(10).fill('x')}]\nb: &b [${Array(10).fill('*a')}]\nc: &c [${Array(10).fill('*b')}]\nlabels: *c\n`,
        ': Excessive alias count indicates a resource exhaustion attack',
      ],
      [
        '- name: x\n  color: "#fff"\n  priority: 99999999999999999999\n',
        ': label 1 (x): priority must be a whole number from 0 to 9007199254740991, or null for none',
      ],
      ['', ' declares no labels'],
      ['# nothing yet\n', ' declares no labels'],
      ['labels:\n', ' declares no labels'],
      ['[]', ' declares no labels'],
    ];
    for (const [text, message] of cases) {
      const path = file('bad.yml', text);
      const result = await suite.run(['labels', 'sync', '--group', 'acme', '--from-file', path, '--prune', '--yes']);
      expect(result).toEqual({ exitCode: 2, stdout: '', stderr: `svc: ${path}${message}\n` });
      expect(suite.requests()).toEqual([]);
    }
  });

  it('reads a file that starts with a UTF-8 byte order mark as the same file without it', async () => {
    const text = '- name: bug\n  color: "#D9534F"\n';
    const path = file('labels.yml', text);
    const plain = await suite.run(['labels', 'sync', '--group', 'acme', '--from-file', path, '--dry-run']);
    writeFileSync(path, `\uFEFF${text}`);
    const marked = await suite.run(['labels', 'sync', '--group', 'acme', '--from-file', path, '--dry-run']);
    expect(plain.exitCode).toBe(0);
    expect(marked).toEqual(plain);
  });
});
