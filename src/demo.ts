import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSandbox } from './sandbox/index.js';

/**
 * `npm run demo`: a short scripted session of real svc commands against an in-process sandbox.
 * Each step prints the command, what it wrote, and its exit code; an unexpected exit code fails the demo.
 */
const bin = fileURLToPath(new URL('../bin/svc.js', import.meta.url));

interface Step {
  args: string[];
  says: string;
  expect?: number;
}

function runSvc(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

function indent(text: string, maxLines = 14): string {
  const lines = text.replace(/\n$/, '').split('\n');
  const shown = lines.slice(0, maxLines).map((l) => `    ${l}`);
  if (lines.length > maxLines) shown.push(`    … (${lines.length - maxLines} more lines)`);
  return shown.join('\n');
}

async function main(): Promise<number> {
  const sandbox = await startSandbox({ port: 0, projects: 40, moveMs: 40 });
  const configDir = mkdtempSync(join(tmpdir(), 'svc-demo-'));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SVC_CONFIG_DIR: configDir,
    SVC_URL: sandbox.url,
    SVC_TOKEN: sandbox.tokens.admin,
  };
  process.stdout.write(`Sandbox with 40 projects on storage 'default' at ${sandbox.url}\n`);
  process.stdout.write(`Commands below run with SVC_URL=${sandbox.url} and the sandbox's admin token in SVC_TOKEN.\n\n`);

  const first = await runSvc(['projects', 'list', '--limit', '1', '--order-by', 'id', '--sort', 'asc', '-o', 'json'], env);
  const project = (JSON.parse(first.stdout) as Array<{ path_with_namespace: string }>)[0]?.path_with_namespace ?? '1';
  const steps: Step[] = [
    { args: ['auth', 'status'], says: 'which URL and token are used, and whom the token belongs to' },
    { args: ['projects', 'list', '--limit', '5'], says: 'the first five projects (asked for five, so no hint that more exist)' },
    {
      args: ['projects', 'list', '--all', '-o', 'ndjson', '--fields', 'id,path_with_namespace'],
      says: 'every project, one JSON line each, every page followed',
    },
    {
      args: ['projects', 'get', project, '--fields', 'id,path_with_namespace,repository_storage'],
      says: 'one project by its namespaced path (encoded for you)',
    },
    { args: ['issues', 'get', project, '1', '--fields', 'iid,id,title,state'], says: 'issue #1 of that project: the path takes the iid' },
    { args: ['files', 'get', project, 'docs/guide/intro.md', '--ref', 'main', '--raw'], says: 'a file in a nested folder, decoded' },
    {
      args: ['pipeline', 'create', project, '--ref', 'main', '--var', 'DEPLOY_ENV=staging', '--wait', '--interval', '0.2'],
      says: 'a pipeline with a variable, watched until it succeeds',
    },
    { args: ['projects', 'get', 'no-such-group/no-such-project'], says: 'a failure: one line on stderr and exit code 5', expect: 5 },
    { args: ['storage-move', 'weights', '--set', 'default=0', '--set', 'storage2=100'], says: 'new projects now land on storage2' },
    {
      args: ['storage-move', 'schedule', '--from', 'default', '--to', 'storage2', '--kind', 'projects', '--wait', '--interval', '0.2'],
      says: 'every repository moved off default, each move watched to finished',
    },
    { args: ['storage-move', 'verify', '--from', 'default', '--kind', 'projects'], says: 'nothing remains on default' },
  ];
  let failures = 0;
  for (const step of steps) {
    process.stdout.write(`$ svc ${step.args.map((a) => (/[\s'"]/.test(a) ? `'${a}'` : a)).join(' ')}\n`);
    process.stdout.write(`  # ${step.says}\n`);
    const result = await runSvc(step.args, env);
    if (result.stdout.trim()) process.stdout.write(`${indent(result.stdout)}\n`);
    if (result.stderr.trim()) process.stdout.write(`${indent(result.stderr, 4).replace(/^ {4}/gm, '    stderr| ')}\n`);
    const expected = step.expect ?? 0;
    const ok = result.code === expected;
    if (!ok) failures++;
    process.stdout.write(`  → exit ${result.code}${ok ? '' : ` (expected ${expected})`}\n\n`);
  }
  await sandbox.close();
  rmSync(configDir, { recursive: true, force: true });
  process.stdout.write(failures ? `${failures} step(s) did not go as expected\n` : 'Every step went as expected.\n');
  return failures ? 1 : 0;
}

process.exitCode = await main();
