import { removeMember } from '../../api/members.js';
import { takeScheduleOwnership } from '../../api/schedules.js';
import { revokeToken } from '../../api/tokens.js';
import { changeUserState } from '../../api/users.js';
import type { HttpClient } from '../../http/client.js';
import type { Journal } from '../bulk/journal.js';
import type { OffboardPlan, OffboardStep } from './plan.js';

export type StepOutcome =
  { step: OffboardStep; outcome: 'done' | 'done-earlier' | 'not-run' } | { step: OffboardStep; outcome: 'failed'; error: unknown };

function perform(http: HttpClient, plan: OffboardPlan, step: OffboardStep, heir: string | undefined): Promise<unknown> {
  const userId = plan.user.id;
  switch (step.kind) {
    case 'revoke-token':
      return revokeToken(http, { owner: { type: 'user', id: userId }, kind: 'personal' }, step.id);
    case 'take-schedule':
      return takeScheduleOwnership(http, step.project!, step.id, heir!);
    case 'remove-membership':
      return removeMember(http, { kind: step.sourceType === 'Project' ? 'projects' : 'groups', id: String(step.id) }, userId);
    case 'block':
      return changeUserState(http, userId, 'block');
  }
}

/**
 * Carries the plan out one step at a time; a step that fails is reported and the others go on. With a
 * journal, a step it records as done is not sent again. A step it saw start and never end (a run killed
 * meanwhile) runs again when it is still in the plan: the plan is read afresh from the service, so it
 * holds only what is still to do.
 */
export async function runOffboard(
  http: HttpClient,
  plan: OffboardPlan,
  options: { heir?: string; journal?: Journal; signal: AbortSignal },
  onStep: (outcome: StepOutcome) => void,
): Promise<StepOutcome[]> {
  const outcomes: StepOutcome[] = [];
  const { journal } = options;
  for (const step of plan.steps) {
    let outcome: StepOutcome;
    if (journal?.state(step.key) === 'done') outcome = { step, outcome: 'done-earlier' };
    else if (options.signal.aborted) outcome = { step, outcome: 'not-run' };
    else {
      await journal?.started(step.key);
      try {
        await perform(http, plan, step, options.heir);
        await journal?.ended(step.key, true);
        outcome = { step, outcome: 'done' };
      } catch (error) {
        await journal?.ended(step.key, false);
        outcome = { step, outcome: 'failed', error };
      }
    }
    outcomes.push(outcome);
    onStep(outcome);
  }
  return outcomes;
}
