import { UsageError } from '../../errors.js';

/** A tag as the clean-up judges it: the list gives the name, the tag's details its date and size. */
export interface TagFacts {
  name: string;
  created_at: string | null;
  total_size: number | null;
  digest: string | null;
}

export interface TagCriteria {
  /** Tags whose whole name matches are candidates (`name_regex_delete`; `.*` is every tag). */
  deleteRegex: string;
  /** Tags whose whole name matches are kept whatever else says (`name_regex_keep`). */
  keepRegex?: string;
  /** The newest N candidates by creation time are kept (`keep_n`). */
  keepN?: number;
  /** Only candidates created longer ago than this are deleted (`older_than`). */
  olderThanMs?: number;
}

/**
 * A regular expression matched against the whole name, as the service's `\A…\z` RE2 patterns are.
 * RE2 has no look-around or back-references, so those are refused here rather than judged differently.
 */
export function fullMatch(flag: string, source: string): RegExp {
  if (/\(\?<?[=!]|\\[1-9]/.test(source)) throw new UsageError(`${flag}: look-around and back-references are not RE2 syntax`);
  try {
    return new RegExp(`^(?:${source})$`, 'u');
  } catch (error) {
    throw new UsageError(`${flag} is not a valid regular expression: ${(error as Error).message}`);
  }
}

/** The name filter, applied before any tag's details are read: `latest` is never deleted. */
export function nameCandidates(names: readonly string[], criteria: TagCriteria): string[] {
  const remove = fullMatch('--name-regex', criteria.deleteRegex);
  const keep = criteria.keepRegex === undefined ? null : fullMatch('--keep-regex', criteria.keepRegex);
  return names.filter((name) => name !== 'latest' && remove.test(name) && !keep?.test(name));
}

/**
 * The service's clean-up (CleanupTagsService): of the candidates, keep the newest `keepN` by creation
 * time (a tag without one counts as newest), then delete only those created before `now - olderThanMs`.
 */
export function tagsToDelete(candidates: readonly TagFacts[], criteria: TagCriteria, now: number): TagFacts[] {
  let chosen = [...candidates];
  // A date missing or unreadable counts as none: newest, so kept. As NaN it made the sort's order
  // arbitrary, and --keep-n could delete the newest tags.
  const created = (tag: TagFacts) => {
    const at = typeof tag.created_at === 'string' ? Date.parse(tag.created_at) : Number.NaN;
    return Number.isNaN(at) ? now : at;
  };
  if (criteria.keepN !== undefined) chosen = chosen.sort((a, b) => created(b) - created(a)).slice(criteria.keepN);
  const olderThan = criteria.olderThanMs;
  if (olderThan !== undefined) chosen = chosen.filter((tag) => created(tag) < now - olderThan);
  return chosen.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
