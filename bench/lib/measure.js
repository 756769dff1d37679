import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const GNU_TIME = '/usr/bin/time';
export const hasGnuTime = existsSync(GNU_TIME);

const CLEAN_PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;

/**
 * Runs one command to completion in a cleared environment with an empty HOME (peers.md: several
 * peers fall back to a public host when no URL reaches them), plus `env`. Node's directory leads
 * PATH so `node` is the one running the bench. Stdout goes to `stdoutFile` (or is discarded).
 * Wall time is measured here; CPU time and peak RSS by GNU time (the child's own rusage).
 */
export async function measure(command, args, { env, stdoutFile, stderrFile, cwd, timeoutMs = 600_000 } = {}) {
  const home = mkdtempSync(join(tmpdir(), 'svc-bench-home-'));
  const runEnv = { PATH: CLEAN_PATH, HOME: home, ...env };
  const timeDir = mkdtempSync(join(tmpdir(), 'svc-bench-time-'));
  const timeFile = join(timeDir, 'rusage');
  const argv = hasGnuTime ? [GNU_TIME, '-f', '%U %S %M', '-o', timeFile, '--', command, ...args] : [command, ...args];
  const out = stdoutFile ? openSync(stdoutFile, 'w') : 'ignore';
  const err = stderrFile ? openSync(stderrFile, 'w') : 'pipe';
  const started = process.hrtime.bigint();
  // Its own process group, so a run past the time limit is ended with everything it started.
  const child = spawn(argv[0], argv.slice(1), { env: runEnv, cwd, stdio: ['ignore', out, err], detached: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    process.kill(-child.pid, 'SIGKILL');
  }, timeoutMs);
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exitCode = await new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? `signal ${signal}`)));
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const endedAt = Date.now();
  clearTimeout(timer);
  for (const fd of [out, err]) if (typeof fd === 'number') closeSync(fd);
  let cpuMs = NaN;
  let peakRssMb = NaN;
  if (hasGnuTime && existsSync(timeFile)) {
    const line = readFileSync(timeFile, 'utf8').trim().split('\n').pop() ?? '';
    const [user, sys, rssKb] = line.split(' ').map(Number);
    cpuMs = (user + sys) * 1000;
    peakRssMb = rssKb / 1024;
  }
  rmSync(timeDir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
  return { exitCode, wallMs, endedAt, cpuMs, peakRssMb, timedOut, stderr: stderr.trim() };
}

export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Whether an executable is on the cleared PATH. */
export function onPath(name) {
  return CLEAN_PATH.split(':').some((dir) => existsSync(join(dir, name)));
}
