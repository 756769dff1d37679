import { UsageError } from '../../errors.js';
import type { QueryParams } from '../../http/encode.js';
import type { OwnerKind } from '../generic/owner.js';

/** The events a hook may fire on, as svc names them (the service's `<name>_events`, with `-` for `_`). */
const COMMON = ['push', 'tag-push', 'merge-requests'];
const PROJECT = [
  ...COMMON,
  'issues',
  'confidential-issues',
  'note',
  'confidential-note',
  'pipeline',
  'wiki-page',
  'deployment',
  'feature-flag',
  'job',
  'releases',
  'milestone',
  'emoji',
  'resource-access-token',
];
export const HOOK_EVENTS: Readonly<Record<string, readonly string[]>> = {
  project: PROJECT,
  group: [...PROJECT, 'subgroup', 'member', 'project'],
  system: [...COMMON, 'repository-update'],
};

export const EVENTS_HELP =
  'comma-separated events: push, tag-push, merge-requests, issues, confidential-issues, note, confidential-note, pipeline, ' +
  'wiki-page, deployment, feature-flag, job, releases, milestone, emoji, resource-access-token; a group adds subgroup, ' +
  'member, project; --system takes push, tag-push, merge-requests, repository-update';

export function ownerKind(opts: Record<string, unknown>): OwnerKind {
  return opts.system === true ? 'system' : opts.group !== undefined ? 'group' : 'project';
}

/** `push` or `push_events` → `push_events`, refused unless the owner's hooks have that event. */
export function eventKey(kind: OwnerKind, name: string): string {
  const plain = name
    .trim()
    .replace(/_events$/, '')
    .replace(/_/g, '-');
  if (!HOOK_EVENTS[kind]?.includes(plain)) {
    throw new UsageError(`unknown event '${name}' for ${kind} hooks: expected one of ${(HOOK_EVENTS[kind] ?? []).join(', ')}`);
  }
  return `${plain.replace(/-/g, '_')}_events`;
}

/** `--on a,b --off c` as the service's switches: `{ a_events: true, b_events: true, c_events: false }`. */
export function eventSwitches(opts: Record<string, unknown>): QueryParams {
  const kind = ownerKind(opts);
  const params: QueryParams = {};
  const both = new Set<string>();
  for (const [flag, on] of [
    ['on', true],
    ['off', false],
  ] as const) {
    for (const name of (opts[flag] as string[] | undefined) ?? []) {
      const key = eventKey(kind, name);
      if (params[key] !== undefined && params[key] !== on) both.add(name);
      params[key] = on;
    }
  }
  if (both.size > 0) throw new UsageError(`--on and --off both name ${[...both].join(', ')}`);
  return params;
}

/** Query parameters of a hook's url that carry a credential, by their name. */
const SECRET_PARAM = /token|secret|key|pass|sig|auth/i;

/** A hook's url without what would let someone else call it: the user and password, and credential parameters. */
export function maskedUrl(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@]*@/i, '$1[redacted]@')
    .replace(/([?&;])([^=&;#]*)=([^&;#]*)/g, (whole, separator: string, name: string) =>
      SECRET_PARAM.test(name) ? `${separator}${name}=[redacted]` : whole,
    );
}

/** A hook or a delivery as svc shows it: its url masked (the service never answers the secret token). */
export function shownHook(record: Record<string, unknown>): Record<string, unknown> {
  return typeof record.url === 'string' ? { ...record, url: maskedUrl(record.url) } : record;
}
