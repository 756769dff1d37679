import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import { expect } from 'vitest';
import { runInProcess } from './in-process.js';

export const BIN = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));

export interface RunOptions {
  /** Run the built CLI in a child process (exit codes, signals, packaging) instead of in this one. */
  process?: boolean;
  /** Extra environment; the child gets only PATH, HOME, SVC_CONFIG_DIR and these. */
  env?: Record<string, string | undefined>;
  input?: string | Buffer;
  configDir?: string;
  /** Secrets that must never appear in stdout or stderr (checked on every run). */
  secrets?: string[];
  timeout?: number;
  cwd?: string;
  /** In process only: the clock wait events are stamped with (a TestClock's, for exact lines). */
  now?: () => number;
}

export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

const tempDirs: string[] = [];
const knownSecrets = new Set<string>();

/** Registers tokens that no run may ever print (the suite-wide secrets check). */
export function registerSecrets(...secrets: string[]): void {
  for (const s of secrets) if (s) knownSecrets.add(s);
}

export function tempDir(prefix = 'svc-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

export function cleanupTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function isolatedEnv(options: RunOptions = {}): Record<string, string> {
  const home = options.configDir ?? tempDir();
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    SVC_CONFIG_DIR: options.configDir ?? join(home, 'config'),
  };
  for (const [k, v] of Object.entries(options.env ?? {})) if (v !== undefined) env[k] = v;
  return env;
}

/** Starts the built CLI without waiting (for kill tests); same isolation as `svc`. */
export function spawnSvc(args: string[], options: RunOptions = {}): ResultPromise {
  return execa('node', [BIN, ...args], {
    env: isolatedEnv(options),
    extendEnv: false,
    reject: false,
    input: options.input,
    timeout: options.timeout ?? 240_000,
    cwd: options.cwd,
    stripFinalNewline: false,
  });
}

/**
 * Runs svc with an isolated config dir and environment: in this process through `main(argv, io)`
 * with memory streams, or as the built CLI in a child process when the test is about the process
 * (`process`, or a working directory of its own).
 */
export async function svc(args: string[], options: RunOptions = {}): Promise<RunResult> {
  if (!options.process && options.cwd === undefined) {
    const out = await runInProcess(args, isolatedEnv(options), options.input, options.now);
    assertNoSecrets(out, options.secrets);
    return out;
  }
  const result = await spawnSvc(args, options);
  const out: RunResult = {
    exitCode: result.exitCode ?? -1,
    stdout: String(result.stdout ?? ''),
    stderr: String(result.stderr ?? ''),
  };
  assertNoSecrets(out, options.secrets);
  return out;
}

export function assertNoSecrets(result: RunResult, extra: string[] = []): void {
  for (const secret of [...knownSecrets, ...extra]) {
    expect(result.stdout.includes(secret), `stdout leaks a token`).toBe(false);
    expect(result.stderr.includes(secret), `stderr leaks a token`).toBe(false);
  }
  expect(result.stderr).not.toMatch(/^\s+at .+\(.*:\d+:\d+\)$/m);
}

export function parseNdjson(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}
