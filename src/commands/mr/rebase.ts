import { getMergeRequest, rebaseMergeRequest } from '../../api/merge-requests.js';
import { defineCommand } from '../../cli/spec.js';
import { IncompleteError } from '../../errors.js';
import { itemPath, withHints } from '../generic/resource.js';
import { checkWaitFlags, WAIT_OPTIONS, type WaitFlags, watchUntilFinal } from '../shared/wait.js';
import { MERGE_REQUESTS, MR_FIELDS, MR_ARGS } from './shared/resource.js';

interface RebaseOptions extends WaitFlags {
  skipCi?: boolean;
  wait?: boolean;
}

export const REBASE = defineCommand<RebaseOptions>({
  name: 'rebase',
  description: 'Rebase the source branch of a merge request onto its target; the service does it in the background',
  args: MR_ARGS,
  options: [
    { flags: '--skip-ci', help: 'start no pipeline for the rebased commits' },
    { flags: '--wait', help: 'wait until the rebase is done (exit 0), failed or timed out (exit 8)' },
    ...WAIT_OPTIONS,
  ],
  notes:
    'Exit codes: 4 you may not push to the source branch, 6 a rebase is already running (the service says to try later), ' +
    '8 with --wait the rebase failed or the wait timed out.',
  examples: ['svc mr rebase acme/platform/api 12', 'svc mr rebase acme/platform/api 12 --skip-ci --wait --wait-timeout 120'],
  async run(ctx, args, opts) {
    checkWaitFlags(opts);
    const [project, iid] = args as [string, string];
    const http = await ctx.http({ requireToken: true });
    const started = await withHints(MERGE_REQUESTS, itemPath(MERGE_REQUESTS), args, () =>
      rebaseMergeRequest(http, project, iid, opts.skipCi === true),
    );
    if (!opts.wait) {
      ctx.info(`rebase of !${iid} started; \`svc mr rebase ${project} ${iid} --wait\` waits for it`);
      await ctx.printRecord(started, ['rebase_in_progress']);
      return;
    }
    const subject = `rebase of !${iid}`;
    const result = await watchUntilFinal(ctx, opts, {
      subject,
      fetch: () => getMergeRequest(http, project, iid, { include_rebase_in_progress: true }),
      status: (mr) => (mr.rebase_in_progress ? 'running' : mr.merge_error ? 'failed' : 'done'),
      isFinal: (mr) => mr.rebase_in_progress !== true,
      onInterrupt: `the ${subject} goes on on the server; \`svc mr get ${project} ${iid}\` shows the merge request`,
    });
    await ctx.printRecord(result.record, [...MR_FIELDS, 'sha']);
    if (result.timedOut) throw new IncompleteError(`${subject} still running after ${result.elapsedS} s`);
    const error = result.record.merge_error;
    if (typeof error === 'string' && error) throw new IncompleteError(`${subject} failed: ${error}`);
    ctx.info(`${subject} done in ${result.elapsedS} s`);
  },
});
