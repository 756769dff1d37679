// `svc sandbox`: validate options, start the sandbox, print how to reach it,
// run until the signal aborts. Never throws: bad input → 2, cannot listen → 1.
import { isIP } from 'node:net';
import { parseFaultSpec } from './faults.js';
import { startSandbox } from './index.js';
import type { Sandbox, SandboxOptions } from './types.js';

export type ServeOptions = SandboxOptions & { output: 'text' | 'json' };
export interface ServeIO {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  signal: AbortSignal;
}

class BadInput extends Error {}

export function isLoopbackHost(host: string): boolean {
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
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) throw new BadInput(`invalid ${name} '${String(v)}': expected a number from 0 to 1`);
}

/** Validate options as given on the command line; throws BadInput. */
function validate(opts: ServeOptions): SandboxOptions {
  const host = opts.host ?? '127.0.0.1';
  if (!isLoopbackHost(host)) throw new BadInput(`refusing to listen on '${host}': the sandbox only listens on loopback (127.0.0.0/8, ::1, localhost)`);
  const objHost = opts.objectStorageHost;
  if (objHost !== undefined && !isLoopbackHost(objHost)) throw new BadInput(`refusing object storage host '${objHost}': it must be a loopback address`);
  checkInt('port', opts.port, 0, 65535);
  checkInt('projects', opts.projects, 0, 2_000_000);
  checkInt('seed', opts.seed, -2147483648, 4294967295);
  checkInt('faultSeed', opts.faultSeed, -2147483648, 4294967295);
  checkInt('move-ms', opts.moveMs, 0, 3_600_000);
  checkInt('move-concurrency', opts.moveConcurrency, 1, 100_000);
  checkInt('rate-limit', opts.rateLimit, 0, 100_000_000);
  checkInt('slow-ms', opts.slowMs, 0, 600_000);
  checkInt('oauth-ttl', opts.oauthTtlSeconds, 1, 10 * 365 * 86400);
  checkInt('max-offset', opts.maxOffset, 0, 1_000_000_000);
  checkRate('move-failure-rate', opts.moveFailureRate);
  checkRate('bulk-skip-rate', opts.bulkSkipRate);
  if (opts.tier !== undefined && opts.tier !== 'free' && opts.tier !== 'premium') throw new BadInput(`invalid tier '${String(opts.tier)}': expected free or premium`);
  if (opts.storages !== undefined) {
    if (!Array.isArray(opts.storages) || opts.storages.length === 0) throw new BadInput('invalid storages: give at least one storage name');
    const seen = new Set<string>();
    for (const s of opts.storages) {
      if (typeof s !== 'string' || !/^[A-Za-z0-9_.-]+$/.test(s)) throw new BadInput(`invalid storage name '${String(s)}': use letters, digits, '_', '-' and '.'`);
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
  const { output: _output, ...rest } = opts;
  void _output;
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

export async function serveSandbox(opts: ServeOptions, io: ServeIO): Promise<number> {
  let options: SandboxOptions;
  try {
    options = validate(opts);
  } catch (e) {
    io.stderr.write(`svc sandbox: ${(e as Error).message}\n`);
    return 2;
  }
  let sb: Sandbox;
  try {
    sb = await startSandbox(options);
  } catch (e) {
    io.stderr.write(`svc sandbox: ${describeListenError(e, options.host!, options.port!)}\n`);
    return 1;
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
      [`CI job token (job ${sb.state.fixtures.jobId})`, t.job],
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
  await new Promise<void>((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sb.close();
  return 0;
}
