// The mergeability check of a merge request (reference endpoints §2, `merge_status`):
// a new one is `preparing`, an approval or a new target marks it `unchecked`, which
// lists show as is (they skip the recheck); a single read or a list with
// `with_merge_status_recheck` starts the check, `checking` for MERGE_CHECK_MS.
// A merge checks synchronously; a rebase runs for REBASE_MS. Choices where the reference is open: the windows
// last MERGE_CHECK_MS (long enough that two requests of a test fall in one).
export const MERGE_CHECK_MS = 300;
/** A rebase takes longer than a check. */
export const REBASE_MS = 1000;

export interface MergeCheck {
  /** until then the merge request is `preparing` (its diff is being built) */
  preparedAt: number;
  /** set when something invalidated the last check and nobody asked for a new one yet */
  uncheckedSince: number | null;
  /** until then the check runs: `checking` */
  checkingUntil: number;
  /** until then a rebase runs in the background (`rebase_in_progress`) */
  rebaseUntil: number;
}

export type CheckStatus = 'preparing' | 'unchecked' | 'checking';

/** The check's own status while it has not concluded, else null (the blockers decide). */
export function checkStatus(check: MergeCheck, now = Date.now()): CheckStatus | null {
  if (now < check.preparedAt) return 'preparing';
  if (check.uncheckedSince !== null) return 'unchecked';
  if (now < check.checkingUntil) return 'checking';
  return null;
}

/** `merge_status`, the older key: `preparing` shows as `checking`. */
export function mergeStatusOf(detailed: string, conflicts: boolean): string {
  if (detailed === 'preparing' || detailed === 'checking') return 'checking';
  if (detailed === 'unchecked') return 'unchecked';
  return conflicts ? 'cannot_be_merged' : 'can_be_merged';
}

/** What invalidates the last check (an approval, a new target branch). */
export function uncheck<T extends MergeCheck>(mr: T, now = Date.now()): T {
  return { ...mr, uncheckedSince: now };
}

/** A read that asks for the status starts the check of an unchecked merge request; `sync` concludes it at once. */
export function recheck<T extends MergeCheck>(mr: T, sync: boolean, now = Date.now()): T {
  if (mr.uncheckedSince === null) return mr;
  return { ...mr, uncheckedSince: null, checkingUntil: sync ? 0 : now + MERGE_CHECK_MS };
}

/** A new merge request: `preparing` for the first window. */
export function newCheck(now = Date.now()): MergeCheck {
  return { preparedAt: now + MERGE_CHECK_MS, uncheckedSince: null, checkingUntil: 0, rebaseUntil: 0 };
}

/** A seeded merge request was checked long ago. */
export const SEEDED_CHECK: MergeCheck = { preparedAt: 0, uncheckedSince: null, checkingUntil: 0, rebaseUntil: 0 };

/** A rebase runs for REBASE_MS and leaves the merge request to be checked again. */
export function rebasing<T extends MergeCheck>(mr: T, now = Date.now()): T {
  return uncheck({ ...mr, rebaseUntil: now + REBASE_MS }, now);
}

export function rebaseInProgress(check: MergeCheck, now = Date.now()): boolean {
  return now < check.rebaseUntil;
}
