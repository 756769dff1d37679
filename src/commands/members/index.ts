import { listMembers, type MemberSource } from '../../api/members.js';
import type { OptionSpec } from '../../cli/spec.js';
import { UsageError } from '../../errors.js';
import type { Resource } from '../generic/resource.js';
import { listVerb } from '../generic/verbs.js';
import { projectRef, requiredTextParser } from '../shared/args.js';

const MEMBERS: Resource = {
  path: '/members',
  params: {},
  columns: ['id', 'username', 'name', 'access_level', 'expires_at', 'state'],
};

const SOURCE: OptionSpec[] = [
  {
    flags: '--project <project>',
    help: 'members of this project (numeric id or namespaced path)',
    parse: projectRef,
    conflicts: ['group'],
  },
  { flags: '--group <group>', help: 'members of this group (numeric id or full path)', parse: requiredTextParser('--group') },
];

/** Exactly one of --project and --group. */
function memberSource(opts: Record<string, unknown>): MemberSource {
  if (opts.project !== undefined) return { kind: 'projects', id: String(opts.project) };
  if (opts.group !== undefined) return { kind: 'groups', id: String(opts.group) };
  throw new UsageError('give --project P or --group G');
}

export const commands = [
  listVerb(MEMBERS, {
    description: "List a project's or a group's members with their access levels (inherited ones too with --inherited)",
    filters: [
      ...SOURCE,
      { flags: '--inherited', help: "also members through parent groups and invited groups (the service's /members/all)" },
      { flags: '--query <text>', key: 'query', help: 'only members whose username or name contains the text' },
    ],
    pages: (http, _path, query, opts) => listMembers(http, memberSource(opts), Boolean(opts.inherited), query),
    notes: 'Access levels: 10 guest, 15 planner, 20 reporter, 30 developer, 40 maintainer, 50 owner.',
    examples: ['svc members list --project acme/api', 'svc members list --group acme --inherited --query jane -o json'],
  }),
];
