import { listVariables } from '../../api/variables.js';
import { defineCommand } from '../../cli/spec.js';
import type { Page } from '../../http/client.js';
import { LIST_OPTIONS, type ListFlags, outputList, perPageFor } from '../shared/list.js';
import { OWNER_OPTIONS, type OwnerFlags, variableOwner } from './shared/owner.js';
import { SHOW_VALUES, shownVariable, VARIABLE_COLUMNS } from './shared/values.js';

interface ListOptions extends OwnerFlags, ListFlags {
  showValues?: boolean;
}

export const LIST = defineCommand<ListOptions>({
  name: 'list',
  description: 'List the CI/CD variables of a project, a group or the instance (masked values shown as [masked])',
  options: [...OWNER_OPTIONS, SHOW_VALUES, ...LIST_OPTIONS],
  examples: ['svc variables list --project acme/platform/api', 'svc variables list --group acme -o json --show-values'],
  async run(ctx, _args, opts) {
    const owner = variableOwner(opts);
    const http = await ctx.http({ requireToken: true });
    const pages = listVariables(http, owner, perPageFor(opts));
    async function* shown(): AsyncGenerator<Page<unknown>> {
      for await (const page of pages)
        yield { ...page, items: page.items.map((v) => shownVariable(v, Boolean(opts.showValues), ctx.globals.output)) };
    }
    await outputList(ctx, shown(), opts, VARIABLE_COLUMNS);
  },
});
