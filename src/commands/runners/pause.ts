import { setRunnerPaused } from '../../api/runners.js';
import { defineCommand, type CommandSpec } from '../../cli/spec.js';
import { withRole } from '../generic/role.js';
import { idDigits } from '../shared/args.js';
import { RUNNER_ROLE, RUNNERS } from './resource.js';
import { writeResult } from '../shared/outcome.js';

/** `pause` and `resume`: `PUT /runners/:id` with `paused`, the changed runner on stdout. */
function pausing(paused: boolean): CommandSpec {
  const verb = paused ? 'pause' : 'resume';
  return defineCommand({
    name: verb,
    description: paused ? 'Pause a runner: it takes no new jobs until resumed' : 'Resume a paused runner: it takes jobs again',
    args: [{ name: 'runner', help: 'runner id', parse: (value) => idDigits('runner id', value) }],
    examples: [`svc runners ${verb} 42`, `svc runners ${verb} 42 -o json --fields id,paused,status`],
    async run(ctx, [runner]) {
      const http = await ctx.http({ requireToken: true });
      const record = await withRole(RUNNER_ROLE, () => setRunnerPaused(http, runner as string, paused));
      ctx.info(`${paused ? 'paused' : 'resumed'} runner ${String(runner)}`);
      await writeResult(ctx, record, RUNNERS.fields ?? []);
    },
  });
}

export const PAUSE = pausing(true);
export const RESUME = pausing(false);
