// `svc sandbox`: parse the flags, validate the options, start the sandbox,
// print how to reach it, run until the signal aborts. serveSandbox never
// throws: bad input → 2, cannot listen → 1. The sandbox loads only when run.
import { isIP } from 'node:net';
import type { Context } from '../../context.js';
import { intOption } from '../../cli/parsers.js';
import { SvcError, UsageError } from '../../errors.js';
import type { Sandbox, SandboxOptions } from '../../sandbox/index.js';
import type { LeafSpec } from '../../cli/spec.js';
import { checkStateWritable, readScenario, readState, writeState } from './files.js';

interface SandboxFlags {
  host: string;
  port: number;
  projects: number;
  users?: number;
  storages: string;
  seed: number;
  adminToken?: string;
  moveMs: number;
  moveFailureRate: number;
  faults?: string;
  rateLimit?: number;
  captcha?: boolean;
  latencyMs?: number | [number, number];
  maxConcurrency?: number;
  log?: boolean;
  scenario?: string;
  scenarioSchema?: boolean;
  state?: string;
}

/** `N` or `MIN-MAX` milliseconds. */
function latency(value: string): number | [number, number] {
  const m = /^\s*(\d+)(?:\s*-\s*(\d+))?\s*$/.exec(value);
  if (!m) throw new UsageError('--latency-ms must be a whole number of milliseconds or a range MIN-MAX');
  if (m[2] === undefined) return Number(m[1]);
  const range: [number, number] = [Number(m[1]), Number(m[2])];
  if (range[0] > range[1]) throw new UsageError('--latency-ms range MIN-MAX must have MIN at most MAX');
  return range;
}

function rate(value: string): number {
  const n = Number(value);
  if (!/^\d*\.?\d+$/.test(value.trim()) || n < 0 || n > 1) throw new UsageError(`--move-failure-rate must be a number from 0 to 1`);
  return n;
}

/** The description is the registry's summary of the command. */
export const command: LeafSpec<SandboxFlags> = {
  name: 'sandbox',
  options: [
    { flags: '--host <address>', help: 'loopback address to listen on', default: '127.0.0.1' },
    { flags: '--port <n>', help: 'port (0 picks a free one)', parse: intOption('--port', 0, 65535), default: 8080 },
    { flags: '--projects <n>', help: 'number of seeded projects', parse: intOption('--projects', 0, 1_000_000), default: 50 },
    {
      flags: '--users <n>',
      help: 'number of seeded users, each with its tokens (default 12 + projects/50)',
      parse: intOption('--users', 2, 1_000_000),
    },
    { flags: '--storages <names>', help: 'comma-separated storage names (projects start on the first)', default: 'default,storage2' },
    { flags: '--seed <n>', help: 'seed for the generated data and faults', parse: intOption('--seed', 0), default: 1 },
    { flags: '--admin-token <token>', help: 'use this value as the admin token' },
    { flags: '--move-ms <ms>', help: 'time each storage-move step takes', parse: intOption('--move-ms', 0), default: 200 },
    { flags: '--move-failure-rate <r>', help: 'share of storage moves that fail (0-1)', parse: rate, default: 0 },
    { flags: '--faults <spec>', help: 'inject faults per request, e.g. 429=0.05,503=0.02,reset=0.01,slow=0.02' },
    { flags: '--rate-limit <n>', help: 'requests per minute per token', parse: intOption('--rate-limit', 1) },
    { flags: '--captcha', help: 'answer spam with a CAPTCHA request (409) instead of a plain error' },
    { flags: '--latency-ms <ms>', help: 'delay every API answer by N ms, or by MIN-MAX ms drawn from the seed', parse: latency },
    {
      flags: '--max-concurrency <n>',
      help: 'handle at most N requests at once; more wait in order',
      parse: intOption('--max-concurrency', 1, 100_000),
    },
    { flags: '--log', help: 'print one line per request to stderr' },
    { flags: '--scenario <file>', help: 'serve the world this YAML or JSON file describes instead of the seeded one' },
    { flags: '--scenario-schema', help: 'print the JSON Schema of scenario files and exit' },
    { flags: '--state <file>', help: 'keep the world across restarts: replay the writes saved here, save them again on exit' },
  ],
  examples: [
    'svc sandbox --port 0 -o json &',
    'svc sandbox --projects 100000 --storages default,storage2,storage3',
    'svc sandbox --faults 429=0.05,503=0.02,reset=0.01 --move-failure-rate 0.1',
    'svc sandbox --latency-ms 20-80 --max-concurrency 4',
    'svc sandbox --scenario ci-world.yml --state sandbox-state.json --port 0 &',
  ],
  run: (ctx, _args, opts) => run(ctx, opts),
};

async function run(ctx: Context, opts: SandboxFlags): Promise<void> {
  if (opts.scenarioSchema) {
    const { SCENARIO_SCHEMA } = await import('../../sandbox/index.js');
    ctx.stdout.write(`${JSON.stringify(SCENARIO_SCHEMA, null, 2)}\n`);
    return;
  }
  const storages = opts.storages
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (storages.length === 0) throw new UsageError('--storages needs at least one storage name');
  return serveSandbox(
    {
      host: opts.host,
      port: opts.port,
      projects: opts.projects,
      users: opts.users,
      storages,
      seed: opts.seed,
      adminToken: opts.adminToken,
      moveMs: opts.moveMs,
      moveFailureRate: opts.moveFailureRate,
      faults: opts.faults,
      rateLimit: opts.rateLimit,
      captcha: opts.captcha,
      latencyMs: opts.latencyMs,
      maxConcurrency: opts.maxConcurrency,
      log: opts.log ? (line: string) => ctx.io.stderr.write(`${line}\n`) : undefined,
      output: ctx.globals.output === 'json' ? 'json' : 'text',
      scenario: opts.scenario === undefined ? undefined : await readScenario(opts.scenario, ctx.io.stderr),
      stateFile: opts.state,
    },
    { stdout: ctx.stdout, stderr: ctx.io.stderr, signal: ctx.signal },
  );
}

export type ServeOptions = SandboxOptions & { output: 'text' | 'json'; stateFile?: string };
export interface ServeIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  signal: AbortSignal;
}

class BadInput extends Error {}

function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (h.startsWith('::ffff:') && isIP(h.slice(7)) === 4) return h.slice(7).startsWith('127.');
  return false;
}

function checkInt(name: string, v: number | undefined, min: number, max: number): void {
  if (v === undefined) return;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new BadInput(`invalid ${name} '${String(v)}': expected an integer from ${min} to ${max}`);
  }
}

function checkRate(name: string, v: number | undefined): void {
  if (v === undefined) return;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1)
    throw new BadInput(`invalid ${name} '${String(v)}': expected a number from 0 to 1`);
}

/** Validate options as given on the command line; throws BadInput. */
function validate(opts: ServeOptions, parseFaultSpec: (spec: string) => unknown): SandboxOptions {
  const host = opts.host ?? '127.0.0.1';
  if (!isLoopbackHost(host))
    throw new BadInput(`refusing to listen on '${host}': the sandbox only listens on loopback (127.0.0.0/8, ::1, localhost)`);
  const objHost = opts.objectStorageHost;
  if (objHost !== undefined && !isLoopbackHost(objHost))
    throw new BadInput(`refusing object storage host '${objHost}': it must be a loopback address`);
  checkInt('port', opts.port, 0, 65535);
  checkInt('projects', opts.projects, 0, 2_000_000);
  checkInt('users', opts.users, 2, 1_000_000);
  checkInt('seed', opts.seed, -2147483648, 4294967295);
  checkInt('faultSeed', opts.faultSeed, -2147483648, 4294967295);
  checkInt('move-ms', opts.moveMs, 0, 3_600_000);
  checkInt('move-concurrency', opts.moveConcurrency, 1, 100_000);
  checkInt('rate-limit', opts.rateLimit, 0, 100_000_000);
  checkInt('slow-ms', opts.slowMs, 0, 600_000);
  checkInt('oauth-ttl', opts.oauthTtlSeconds, 1, 10 * 365 * 86400);
  checkInt('max-offset', opts.maxOffset, 0, 1_000_000_000);
  checkRate('move-failure-rate', opts.moveFailureRate);
  checkInt('max-concurrency', opts.maxConcurrency, 0, 100_000);
  const latency = Array.isArray(opts.latencyMs) ? opts.latencyMs : opts.latencyMs === undefined ? [] : [opts.latencyMs];
  for (const ms of latency) checkInt('latency-ms', ms, 0, 600_000);
  if (latency.length === 2 && latency[0]! > latency[1]!)
    throw new BadInput(`invalid latency-ms '${latency.join('-')}': the minimum is above the maximum`);
  checkRate('bulk-skip-rate', opts.bulkSkipRate);
  if (opts.tier !== undefined && opts.tier !== 'free' && opts.tier !== 'premium')
    throw new BadInput(`invalid tier '${String(opts.tier)}': expected free or premium`);
  if (opts.storages !== undefined) {
    if (!Array.isArray(opts.storages) || opts.storages.length === 0) throw new BadInput('invalid storages: give at least one storage name');
    const seen = new Set<string>();
    for (const s of opts.storages) {
      if (typeof s !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(s))
        throw new BadInput(`invalid storage name '${String(s)}': use letters, digits, '_', '-' and '.'`);
      if (seen.has(s)) throw new BadInput(`storage '${s}' is given twice`);
      seen.add(s);
    }
  }
  if (opts.adminToken !== undefined && (typeof opts.adminToken !== 'string' || !/^\S{8,}$/.test(opts.adminToken))) {
    throw new BadInput('invalid admin token: use at least 8 characters without spaces');
  }
  if (opts.faults !== undefined) {
    try {
      parseFaultSpec(opts.faults);
    } catch (e) {
      throw new BadInput((e as Error).message);
    }
  }
  const { output: _output, stateFile: _stateFile, ...rest } = opts;
  void _output;
  void _stateFile;
  return { ...rest, host, port: opts.port ?? 8080 };
}

function describeListenError(e: unknown, host: string, port: number): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (code === 'EADDRINUSE') return `cannot listen on ${where}: address already in use (choose another --port, or --port 0 for a free one)`;
  if (code === 'EACCES') return `cannot listen on ${where}: permission denied`;
  if (code === 'EADDRNOTAVAIL') return `cannot listen on ${where}: address not available on this machine`;
  return `cannot listen on ${where}: ${(e as Error)?.message ?? String(e)}`;
}

export async function serveSandbox(opts: ServeOptions, io: ServeIO): Promise<void> {
  const { parseFaultSpec, startSandbox, STATE_FORMAT, worldIdentity } = await import('../../sandbox/index.js');
  let options: SandboxOptions;
  try {
    options = validate(opts, parseFaultSpec);
  } catch (e) {
    throw new UsageError(`sandbox: ${(e as Error).message}`);
  }
  const world = worldIdentity({
    seed: options.seed ?? 1,
    projects: options.projects ?? 50,
    users: options.users ?? 0,
    storages: options.storages ?? [],
    scenario: options.scenario,
  });
  if (opts.stateFile !== undefined) checkStateWritable(opts.stateFile);
  const kept = opts.stateFile === undefined ? null : readState(opts.stateFile, world, STATE_FORMAT);
  if (kept) Object.assign(options, kept);
  let sb: Sandbox;
  try {
    sb = await startSandbox(options);
  } catch (e) {
    throw new SvcError(`sandbox: ${describeListenError(e, options.host!, options.port!)}`);
  }
  const t = sb.tokens;
  if (opts.output === 'json') {
    io.stdout.write(`${JSON.stringify({ url: sb.url, tokens: t })}\n`);
  } else {
    const credentials: Array<[string, string]> = [
      ['admin token (root; api, sudo)', t.admin],
      ['admin token (root; api only)', t.adminNoSudo],
      ['user token (jdoe; api)', t.user],
      ['user token (jdoe; read_api)', t.readApi],
      // A scenario's world has no seeded job for the job token to belong to.
      ...(options.scenario ? [] : [[`CI job token (job ${sb.state.fixtures.jobId})`, t.job] as [string, string]]),
      ['OAuth access token (root)', t.oauth.access],
      ['OAuth refresh token', t.oauth.refresh],
      ['artifact object storage', sb.objectsUrl],
    ];
    const width = Math.max(...credentials.map(([label]) => label.length)) + 1;
    const lines = [
      `svc sandbox listening on ${sb.url} (API at ${sb.url}/api/v4, ${sb.state.projectCount()} projects)`,
      ...credentials.map(([label, value]) => `  ${`${label}:`.padEnd(width)}   ${value}`),
      '',
      `export SVC_URL=${sb.url} SVC_TOKEN=${t.admin}`,
      '',
      'Stop with Ctrl-C.',
    ];
    io.stdout.write(`${lines.join('\n')}\n`);
  }
  if (options.journal?.length)
    io.stderr.write(
      `replayed ${options.journal.length} writes from ${opts.stateFile}${sb.replayRefused ? ` (${sb.replayRefused} refused)` : ''}\n`,
    );
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sb.close();
  if (opts.stateFile !== undefined) {
    try {
      writeState(opts.stateFile, { format: STATE_FORMAT, world, createdAt: sb.createdAt, journal: sb.journal() });
    } catch (e) {
      throw new SvcError(
        `sandbox: cannot write the state file ${opts.stateFile}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      );
    }
  }
}
