import { calledOf } from '../generic/resource.js';
import { writeVerb } from '../generic/write.js';
import { RUNNERS } from './resource.js';

/** `pause` and `resume`: `PUT /runners/:id` with `paused`, the changed runner on stdout. */
function pausing(paused: boolean) {
  const verb = paused ? 'pause' : 'resume';
  return writeVerb(RUNNERS, {
    name: verb,
    method: 'PUT',
    fixed: { paused },
    description: paused ? 'Pause a runner: it takes no new jobs until resumed' : 'Resume a paused runner: it takes jobs again',
    done: ({ args }) => `${paused ? 'paused' : 'resumed'} ${calledOf(RUNNERS, args)}`,
    examples: [`svc runners ${verb} 42`, `svc runners ${verb} 42 -o json --fields id,paused,status`],
  });
}

export const PAUSE = pausing(true);
export const RESUME = pausing(false);
