import { sendRequest } from '../../api/resource.js';
import { defineCommand, type CommandSpec } from '../../cli/spec.js';
import { UsageError } from '../../errors.js';
import { apiPath } from '../../http/encode.js';
import { ownerOptions, ownerPath } from '../generic/owner.js';
import type { Resource } from '../generic/resource.js';
import { roleFor, withRole } from '../generic/role.js';
import { idDigits } from '../shared/args.js';
import { writeResult } from '../shared/outcome.js';
import { eventKey, ownerKind } from './events.js';

/**
 * `hooks test HOOK EVENT`: the service sends the hook a sample of the event and says whether the
 * receiver took it (201) or not (422, with the receiver's answer). A system hook takes no event: the
 * service sends its one sample and answers it, whatever the receiver said.
 */
export function testVerb(hooks: Resource): CommandSpec {
  const role = hooks.roles?.test ?? 'maintainer';
  return defineCommand<Record<string, unknown>>({
    name: 'test',
    description: 'Send a webhook a sample event now; a delivery the receiver refuses is exit 6 with its answer',
    args: [
      { name: 'hook', help: 'the hook id', parse: (value) => idDigits('hook id', value) },
      { name: 'event', help: 'the event to send a sample of (push, tag-push, issues, …; none with --system)', optional: true },
    ],
    options: ownerOptions(hooks.owners),
    examples: [
      'svc hooks test 12 push --project acme/platform/api',
      'svc hooks test 4 merge-requests --group acme',
      'svc hooks test 3 --system',
    ],
    notes:
      'The delivery is logged: `svc hooks events HOOK` shows it. Repeated failures make the service disable a ' +
      'project hook for a while (alert_status temporarily_disabled, until disabled_until); a test is sent even then.',
    async run(ctx, args, opts) {
      const [hook, event] = args as [string, string | undefined];
      const kind = ownerKind(opts);
      const owner = ownerPath(hooks.owners, opts);
      if (kind === 'system' && event !== undefined) throw new UsageError('a system hook is tested without an event: drop the event');
      if (kind !== 'system' && event === undefined) throw new UsageError('name the event to send, e.g. push');
      const path = kind === 'system' ? apiPath`/hooks/${hook}` : owner + apiPath`/hooks/${hook}/test/${eventKey(kind, event!)}`;
      const http = await ctx.http({ requireToken: true });
      const res = await withRole(roleFor(role, opts) as string, () => sendRequest(http, 'POST', path));
      if (kind === 'system') {
        ctx.info(`sent the sample system event to hook ${hook} (the service does not say how the receiver answered: see its logs)`);
        // The answer is the sample event itself, a document with no columns: printed only when -o asks for it.
        if (ctx.globals.output) await writeResult(ctx, res.data, []);
        return;
      }
      ctx.info(`hook ${hook} took the ${event} sample (the receiver answered 2xx)`);
    },
  });
}
