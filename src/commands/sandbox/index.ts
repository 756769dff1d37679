import type { Command } from 'commander';
import type { Context } from '../../context.js';
import { intOption, withExamples, type Runtime } from '../../runtime.js';
import { UsageError } from '../../errors.js';

interface SandboxFlags {
  host: string;
  port: number;
  projects: number;
  storages: string;
  seed: number;
  adminToken?: string;
  moveMs: number;
  moveFailureRate: number;
  faults?: string;
  rateLimit?: number;
  captcha?: boolean;
  log?: boolean;
}

function rate(value: string): number {
  const n = Number(value);
  if (!/^\d*\.?\d+$/.test(value.trim()) || n < 0 || n > 1) throw new UsageError(`--move-failure-rate must be a number from 0 to 1`);
  return n;
}

export function register(program: Command, runtime: Runtime, summary: string): void {
  const command = program
    .command('sandbox')
    .description(summary)
    .option('--host <address>', 'loopback address to listen on', '127.0.0.1')
    .option('--port <n>', 'port (0 picks a free one)', intOption('--port', 0, 65535), 8080)
    .option('--projects <n>', 'number of seeded projects', intOption('--projects', 0, 1_000_000), 50)
    .option('--storages <names>', 'comma-separated storage names (projects start on the first)', 'default,storage2')
    .option('--seed <n>', 'seed for the generated data and faults', intOption('--seed', 0), 1)
    .option('--admin-token <token>', 'use this value as the admin token')
    .option('--move-ms <ms>', 'time each storage-move step takes', intOption('--move-ms', 0), 200)
    .option('--move-failure-rate <r>', 'share of storage moves that fail (0-1)', rate, 0)
    .option('--faults <spec>', 'inject faults per request, e.g. 429=0.05,503=0.02,reset=0.01,slow=0.02')
    .option('--rate-limit <n>', 'requests per minute per token', intOption('--rate-limit', 1))
    .option('--captcha', 'answer spam with a CAPTCHA request (409) instead of a plain error')
    .option('--log', 'print one line per request to stderr');
  withExamples(command, [
    'svc sandbox --port 0 -o json &',
    'svc sandbox --projects 100000 --storages default,storage2,storage3',
    'svc sandbox --faults 429=0.05,503=0.02,reset=0.01 --move-failure-rate 0.1',
  ]);
  command.action(runtime.action<SandboxFlags>((ctx, _args, opts) => run(ctx, opts)));
}

export async function run(ctx: Context, opts: SandboxFlags): Promise<number> {
  const storages = opts.storages.split(',').map((s) => s.trim()).filter(Boolean);
  if (storages.length === 0) throw new UsageError('--storages needs at least one storage name');
  const { serveSandbox } = await import('../../sandbox/serve.js');
  return serveSandbox(
    {
      host: opts.host,
      port: opts.port,
      projects: opts.projects,
      storages,
      seed: opts.seed,
      adminToken: opts.adminToken,
      moveMs: opts.moveMs,
      moveFailureRate: opts.moveFailureRate,
      faults: opts.faults,
      rateLimit: opts.rateLimit,
      captcha: opts.captcha,
      log: opts.log ? (line: string) => ctx.io.stderr.write(`${line}\n`) : undefined,
      output: ctx.globals.output === 'json' ? 'json' : 'text',
    },
    { stdout: ctx.stdout, stderr: ctx.io.stderr, signal: ctx.signal },
  );
}
