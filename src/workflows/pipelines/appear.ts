import type { Clock } from '../shared/clock.js';
import type { Deadline } from '../shared/deadline.js';

export interface AppearWait {
  clock: Clock;
  signal: AbortSignal;
  deadline: Deadline;
  intervalMs: number;
}

/** Looks until `find` finds something (a pipeline a push has not created yet); undefined once the deadline passed. */
export async function waitToAppear<T>(find: () => Promise<T | undefined>, wait: AppearWait): Promise<T | undefined> {
  for (;;) {
    const found = await wait.deadline.race(find());
    if (found.expired) return undefined;
    if (found.value !== undefined) return found.value;
    if (wait.deadline.expired()) return undefined;
    await wait.clock.sleep(Math.min(wait.intervalMs, wait.deadline.remainingMs()), wait.signal);
  }
}
