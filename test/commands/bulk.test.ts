import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/harness.js';
import { useSandbox } from './support.js';

interface Outcome {
  input: unknown;
  ok: boolean;
  exit_code: number | null;
  error: string | null;
  result: unknown;
}

function outcomes(stdout: string): Outcome[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Outcome);
}

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i));

describe('svc bulk: one command per input line (#16 item 4)', () => {
  const suite = useSandbox({ projects: 10 });

  it('runs the command once per id and prints one outcome line per item', async () => {
    const result = await suite.run(['bulk', '--max-in-flight', '1', '--', 'projects', 'archive', '{id}', '--fields', 'id,archived'], {
      input: '3\n4\n\n5\n',
    });
    expect(result.stderr).toBe('bulk: 3 ok, 0 failed\n');
    expect(result.exitCode).toBe(0);
    expect(outcomes(result.stdout)).toEqual(
      ['3', '4', '5'].map((id) => ({ input: id, ok: true, exit_code: 0, error: null, result: { id: Number(id), archived: true } })),
    );
    expect(suite.requests().map((r) => `${r.method} ${r.rawPath}`)).toEqual([
      'POST /api/v4/projects/3/archive',
      'POST /api/v4/projects/4/archive',
      'POST /api/v4/projects/5/archive',
    ]);
  });

  it('fills placeholders from NDJSON records, dot paths included, and keeps the JSON the command printed', async () => {
    const input = [JSON.stringify({ id: 7, namespace: { full_path: 'acme' }, path: 'dusty-orchard-7' }), JSON.stringify({ id: 8 })].join(
      '\n',
    );
    const result = await suite.run(
      ['bulk', '--max-in-flight', '1', '--', 'projects', 'get', '{namespace.full_path}/{path}', '--fields', 'id,path'],
      {
        input,
      },
    );
    expect(outcomes(result.stdout)).toEqual([
      {
        input: { id: 7, namespace: { full_path: 'acme' }, path: 'dusty-orchard-7' },
        ok: true,
        exit_code: 0,
        error: null,
        result: { id: 7, path: 'dusty-orchard-7' },
      },
      {
        input: { id: 8 },
        ok: false,
        exit_code: null,
        error: "the input has no field 'namespace.full_path' for {namespace.full_path}",
        result: null,
      },
    ]);
    expect(result.stderr).toBe('bulk: 1 ok, 1 failed\nsvc: 1 of 2 items failed\n');
    expect(result.exitCode).toBe(8);
  });

  it('reports a line that is not JSON and a failing item as their own outcomes, not as a crash', async () => {
    const result = await suite.run(['bulk', '--max-in-flight', '1', '--', 'projects', 'get', '{id}', '--fields', 'id'], {
      input: '{"id":\n99999\n2\n',
    });
    expect(outcomes(result.stdout)).toEqual([
      { input: '{"id":', ok: false, exit_code: null, error: 'the input line is not valid JSON', result: null },
      { input: '99999', ok: false, exit_code: 5, error: 'GET /projects/99999 failed: 404 Project Not Found', result: null },
      { input: '2', ok: true, exit_code: 0, error: null, result: { id: 2 } },
    ]);
    expect(result.stderr).toBe('bulk: 1 ok, 2 failed\nsvc: 2 of 3 items failed\n');
    expect(result.exitCode).toBe(8);
  });

  it('prints the resolved commands under --dry-run without sending anything', async () => {
    const result = await suite.run(
      ['bulk', '--dry-run', '--max-in-flight', '1', '--', 'projects', 'get', '{path_with_namespace}', '--fields', 'id,name x'],
      {
        input: '{"path_with_namespace":"acme/api"}\n{"id":1}\n',
      },
    );
    expect(result.stdout).toBe("svc projects get acme/api --fields 'id,name x'\n");
    expect(result.stderr).toBe(
      `svc: {"id":1}: the input has no field 'path_with_namespace' for {path_with_namespace}\nbulk: 1 command printed, 1 input unusable, nothing sent (dry run)\nsvc: 1 of 2 inputs could not fill the command\n`,
    );
    expect(result.exitCode).toBe(8);
    expect(suite.requests()).toEqual([]);
  });

  it('ends a dry run by counting the commands printed, not items run', async () => {
    const ids = Array.from({ length: 14 }, (_, i) => String(i + 1));
    const result = await suite.run(['bulk', '--dry-run', '--', 'snippets', 'delete', '--yes', '{id}'], { input: `${ids.join('\n')}\n` });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trimEnd().split('\n').sort()).toEqual(ids.map((id) => `svc snippets delete --yes ${id}`).sort());
    expect(result.stderr).toBe('bulk: 14 commands printed, nothing sent (dry run)\n');
    expect(suite.requests()).toEqual([]);
  });

  it('skips the items of a --journal under --dry-run, and writes nothing to it', async () => {
    const dir = tempDir();
    const journal = join(dir, 'done.journal');
    writeFileSync(journal, '"1"\n');
    const args = ['bulk', '--dry-run', '--journal', journal, '--max-in-flight', '1', '--', 'projects', 'archive', '{id}'];
    const result = await suite.run(args, { input: '1\n2\n' });
    expect(result).toEqual({
      exitCode: 0,
      stdout: 'svc projects archive 2\n',
      stderr: 'bulk: 1 command printed, 1 skipped (already in the journal), nothing sent (dry run)\n',
    });
    expect(readFileSync(journal, 'utf8')).toBe('"1"\n');
    const absent = join(dir, 'absent.journal');
    const fresh = await suite.run(['bulk', '--dry-run', '--journal', absent, '--', 'projects', 'archive', '{id}'], {
      input: '1\n',
    });
    expect(fresh).toEqual({ exitCode: 0, stdout: 'svc projects archive 1\n', stderr: 'bulk: 1 command printed, nothing sent (dry run)\n' });
    expect(existsSync(absent)).toBe(false);
    expect(suite.requests()).toEqual([]);
  });

  it.each([
    [['sandbox'], 'svc: bulk cannot run `svc sandbox` per item: runs a server until Ctrl-C\n'],
    [['bulk', '--', 'projects', 'archive', '{id}'], 'svc: bulk cannot run `svc bulk` per item: bulk runs cannot be nested\n'],
    [['auth', 'login'], 'svc: bulk cannot run `svc auth` per item: logs in and out with prompts\n'],
  ])('refuses %j with exit 2 before reading any input', async (command, message) => {
    const result = await suite.run(['bulk', '--', ...command], { input: '1\n' });
    expect(result).toEqual({ exitCode: 2, stdout: '', stderr: message });
    expect(suite.requests()).toEqual([]);
  });

  it('passes the global options given before bulk to every item', async () => {
    const result = await suite.run(['-o', 'ndjson', 'bulk', '--', 'projects', 'get', '{id}', '--fields', 'id'], { input: '1\n' });
    // The item printed NDJSON (the global -o), which is still JSON.
    expect(outcomes(result.stdout)).toEqual([{ input: '1', ok: true, exit_code: 0, error: null, result: { id: 1 } }]);
  });
});

describe('svc bulk under injected faults, resumed with a journal (#16 item 4)', () => {
  const suite = useSandbox({ projects: 10, faults: '503=0.3', faultSeed: 3 });

  it('ends every item exactly once, and each rerun sends nothing for the items already done', async () => {
    const journal = join(tempDir(), 'archived.journal');
    const input = `${ids(1, 10).join('\n')}\n`;
    const archived = new Set<string>();
    for (let run = 1; archived.size < 10; run++) {
      expect(run).toBeLessThanOrEqual(20);
      const result = await suite.run(
        ['--retries', '0', 'bulk', '--max-in-flight', '4', '--journal', journal, '--', 'projects', 'archive', '{id}', '-q'],
        {
          input,
        },
      );
      const seen = outcomes(result.stdout);
      const pending = ids(1, 10).filter((id) => !archived.has(id));
      expect(seen.map((o) => o.input).sort()).toEqual(pending.sort());
      // Nothing already done is sent again: every request is for a pending project, once.
      expect(
        suite
          .requests()
          .map((r) => `${r.method} ${r.rawPath}`)
          .sort(),
      ).toEqual(pending.map((id) => `POST /api/v4/projects/${id}/archive`).sort());
      const failed = seen.filter((o) => !o.ok);
      for (const o of failed) {
        expect(o).toEqual({
          input: o.input,
          ok: false,
          exit_code: 1,
          error: `POST /projects/${String(o.input)}/archive failed: 503 Service Unavailable: an HTML page ("503 Service Temporarily Unavailable"), probably from a proxy`,
          result: null,
        });
      }
      for (const o of seen) if (o.ok) archived.add(String(o.input));
      const skipped = 10 - pending.length;
      const skippedText = skipped > 0 ? `, ${skipped} skipped (already in the journal)` : '';
      const summary = `bulk: ${seen.length - failed.length} ok, ${failed.length} failed${skippedText}\n`;
      expect(result.stderr).toBe(failed.length > 0 ? `${summary}svc: ${failed.length} of ${seen.length} items failed\n` : summary);
      expect(result.exitCode).toBe(failed.length > 0 ? 8 : 0);
    }
    const records = readFileSync(journal, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, string>);
    const named = (name: string) => records.filter((r) => name in r).map((r) => r[name]);
    expect(named('done').sort()).toEqual(ids(1, 10).sort());
    // Every item started was ended, as done or failed: nothing is left unsure.
    expect(named('start').sort()).toEqual([...named('done'), ...named('failed')].sort());
  });
});
