import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/harness.js';
import { useSandbox } from './support.js';

const ARCHIVE = ['projects', 'archive', '{id}', '--fields', 'id'];
const ok = (id: string) => `{"input":"${id}","ok":true,"exit_code":0,"error":null,"result":{"id":${id}}}\n`;
const UNSURE_ERROR =
  'not run: an earlier run started it and ended before it did, so it may have run; check it, then rerun with --retry-unsure';

describe('svc bulk --journal: each item exactly once (#22 item 4)', () => {
  const suite = useSandbox({ projects: 5 });
  const sent = () => suite.requests().map((r) => `${r.method} ${r.rawPath}`);

  it('runs a line repeated in the input once, with or without a journal', async () => {
    const result = await suite.run(['bulk', '--max-in-flight', '1', '--', ...ARCHIVE], { input: '3\n3\n4\n 3\n' });
    expect(result).toEqual({ exitCode: 0, stdout: ok('3') + ok('4'), stderr: 'bulk: 2 ok, 0 failed, 2 repeated lines run once\n' });
    expect(sent()).toEqual(['POST /api/v4/projects/3/archive', 'POST /api/v4/projects/4/archive']);
  });

  it('does not run an item started by a run that never ended it, says so, and exits 8; --retry-unsure runs it', async () => {
    const journal = join(tempDir(), 'run.journal');
    const before = '{"run":1}\n{"start":"1"}\n{"done":"1"}\n{"start":"2"}\n';
    writeFileSync(journal, before);
    const args = ['bulk', '--max-in-flight', '1', '--journal', journal, '--', ...ARCHIVE];
    const first = await suite.run(args, { input: '1\n2\n3\n' });
    expect(first.stdout).toBe(`{"input":"2","ok":false,"exit_code":null,"error":"${UNSURE_ERROR}","result":null}\n${ok('3')}`);
    expect(first.stderr).toBe(
      'bulk: 1 ok, 0 failed, 1 skipped (already in the journal), 1 unsure (not run)\n' +
        'warning: not run, it may have run already: 2\n' +
        'svc: 1 of 2 items not run: an earlier run started them and was stopped before they ended; check them, then rerun with --retry-unsure to run them again\n',
    );
    expect(first.exitCode).toBe(8);
    expect(sent()).toEqual(['POST /api/v4/projects/3/archive']);
    expect(readFileSync(journal, 'utf8')).toBe(`${before}{"run":2}\n{"start":"3"}\n{"done":"3"}\n`);

    const retry = await suite.run(['bulk', '--retry-unsure', ...args.slice(1)], { input: '1\n2\n3\n' });
    expect(retry).toEqual({ exitCode: 0, stdout: ok('2'), stderr: 'bulk: 1 ok, 0 failed, 2 skipped (already in the journal)\n' });
    expect(sent()).toEqual(['POST /api/v4/projects/2/archive']);
    expect(readFileSync(journal, 'utf8')).toBe(`${before}{"run":2}\n{"start":"3"}\n{"done":"3"}\n{"run":3}\n{"start":"2"}\n{"done":"2"}\n`);
  });

  it('under --dry-run prints no command for an unsure item, lists it, and writes nothing', async () => {
    const journal = join(tempDir(), 'run.journal');
    writeFileSync(journal, '{"run":1}\n{"start":"2"}\n');
    const result = await suite.run(['bulk', '--dry-run', '--max-in-flight', '1', '--journal', journal, '--', ...ARCHIVE], {
      input: '1\n2\n',
    });
    expect(result).toEqual({
      exitCode: 8,
      stdout: 'svc projects archive 1 --fields id\n',
      stderr:
        'bulk: 1 command printed, 1 unsure (not run), nothing sent (dry run)\n' +
        'warning: not run, it may have run already: 2\n' +
        'svc: 1 of 2 items not run: an earlier run started them and was stopped before they ended; check them, then rerun with --retry-unsure to run them again\n',
    });
    expect(readFileSync(journal, 'utf8')).toBe('{"run":1}\n{"start":"2"}\n');
    expect(existsSync(`${journal}.lock`)).toBe(false);
  });

  it('cuts off a last line left half-written before appending, and reads the rest', async () => {
    const journal = join(tempDir(), 'run.journal');
    writeFileSync(journal, '{"run":1}\n{"start":"1"}\n{"done":"1"}\n{"start":"2"}\n{"done":');
    const result = await suite.run(['bulk', '--max-in-flight', '1', '--journal', journal, '--retry-unsure', '--', ...ARCHIVE], {
      input: '1\n2\n',
    });
    expect(result).toEqual({
      exitCode: 0,
      stdout: ok('2'),
      stderr: `bulk: --journal ${journal}: removed its last line, cut short (8 bytes) by a run that was killed\nbulk: 1 ok, 0 failed, 1 skipped (already in the journal)\n`,
    });
    expect(readFileSync(journal, 'utf8')).toBe(
      '{"run":1}\n{"start":"1"}\n{"done":"1"}\n{"start":"2"}\n{"run":2}\n{"start":"2"}\n{"done":"2"}\n',
    );
  });

  it('counts the cut in bytes when the line was cut inside a character', async () => {
    const journal = join(tempDir(), 'run.journal');
    const whole = '{"run":1}\n{"start":"é"}\n';
    writeFileSync(journal, Buffer.concat([Buffer.from(`${whole}{"done":"`), Buffer.from('é').subarray(0, 1)]));
    const result = await suite.run(['bulk', '--journal', journal, '--', ...ARCHIVE], { input: '1\n' });
    expect(result).toEqual({
      exitCode: 0,
      stdout: ok('1'),
      stderr: `bulk: --journal ${journal}: removed its last line, cut short (10 bytes) by a run that was killed\nbulk: 1 ok, 0 failed\n`,
    });
    expect(readFileSync(journal, 'utf8')).toBe(`${whole}{"run":2}\n{"start":"1"}\n{"done":"1"}\n`);
  });

  it('reads a journal of bare ids (done items, as older versions wrote) and runs the failed ones again', async () => {
    const journal = join(tempDir(), 'old.journal');
    writeFileSync(journal, '"1"\n{"start":"2"}\n{"failed":"2"}\n');
    const result = await suite.run(['bulk', '--max-in-flight', '1', '--journal', journal, '--', ...ARCHIVE], { input: '1\n2\n' });
    expect(result).toEqual({ exitCode: 0, stdout: ok('2'), stderr: 'bulk: 1 ok, 0 failed, 1 skipped (already in the journal)\n' });
  });

  it('refuses a file that is not a journal (line by line) before running anything, and leaves it as it was', async () => {
    const journal = join(tempDir(), 'projects.ndjson');
    writeFileSync(journal, '{"run":1}\n{"id":1}\n');
    const result = await suite.run(['bulk', '--journal', journal, '--', ...ARCHIVE], { input: '1\n' });
    expect(result).toEqual({
      exitCode: 2,
      stdout: '',
      stderr: `svc: --journal ${journal}: line 2 is not a bulk journal record; is it the right file?\n`,
    });
    expect(readFileSync(journal, 'utf8')).toBe('{"run":1}\n{"id":1}\n');
    expect(existsSync(`${journal}.lock`)).toBe(false);
    expect(sent()).toEqual([]);
  });

  it('refuses a journal another live run holds, at once, naming its pid', async () => {
    const journal = join(tempDir(), 'run.journal');
    writeFileSync(`${journal}.lock`, `${process.pid} ${hostname()}\n`);
    const result = await suite.run(['bulk', '--journal', journal, '--', ...ARCHIVE], { input: '1\n' });
    expect(result).toEqual({
      exitCode: 1,
      stdout: '',
      stderr: `svc: --journal ${journal} is in use by another svc bulk run (pid ${process.pid}); wait for it to end, or delete ${journal}.lock if none is running\n`,
    });
    expect(existsSync(journal)).toBe(false);
    expect(sent()).toEqual([]);
  });

  it('refuses a FIFO as the journal or as its lock without opening it for reading or writing (#22 item 7)', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'fifo.journal');
    execFileSync('mkfifo', [fifo]);
    for (const dryRun of [[], ['--dry-run']]) {
      const result = await suite.run(['bulk', ...dryRun, '--journal', fifo, '--', ...ARCHIVE], { input: '1\n' });
      expect(result).toEqual({ exitCode: 2, stdout: '', stderr: `svc: --journal ${fifo}: it is a FIFO; give a regular file\n` });
    }
    const journal = join(dir, 'run.journal');
    execFileSync('mkfifo', [`${journal}.lock`]);
    const locked = await suite.run(['bulk', '--journal', journal, '--', ...ARCHIVE], { input: '1\n' });
    expect(locked).toEqual({ exitCode: 2, stdout: '', stderr: `svc: --journal: ${journal}.lock is not a regular file; delete it\n` });
    expect(sent()).toEqual([]);
  });
});
