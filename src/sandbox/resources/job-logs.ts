// Job logs as the runner writes them (reference endpoints §4, trace): ANSI colours, collapsible
// sections (`section_start:<epoch>:<name>\r\e[0K`), and for a failed job the lines that say why.
// A running job's log is the part written so far, so it grows between reads.
import type { JobRec } from '../store/records.js';
import type { World } from '../store/world.js';
import { type JobState, timingOfJob } from './job-states.js';
import { pipelineStore } from './pipeline-store.js';

const ESC = '\u001b';
const RESET = `${ESC}[0;m`;
const GREEN = `${ESC}[32;1m`;
const RED = `${ESC}[31;1m`;
const CYAN = `${ESC}[36;1m`;

function sectionStart(epoch: number, name: string, header: string): string {
  return `section_start:${epoch}:${name}\r${ESC}[0K${CYAN}${header}${RESET}`;
}

function sectionEnd(epoch: number, name: string): string {
  return `section_end:${epoch}:${name}\r${ESC}[0K`;
}

/** The test that fails in a failed job, with the reason its log gives. */
export function failureLines(job: JobRec): string[] {
  return [
    `FAIL  test/${job.name}/job-${job.id}.test.ts > checks the build output`,
    'AssertionError: expected 3 to be 4',
    `${RED}ERROR: Job failed: exit code 1${RESET}`,
  ];
}

function fullLog(w: World, job: JobRec, state: JobState): string[] {
  const epoch = Math.floor((state.startedAt ?? 0) / 1000);
  // A job made to run longer writes about a line a second.
  const steps = Math.max(4 + (w.h(81, job.id) % 5), Math.ceil(timingOfJob(w, job).runningMs / 1000));
  const lines = [
    `${ESC}[0KRunning with svc-sandbox-runner 17.5.0`,
    sectionStart(epoch, 'prepare_executor', 'Preparing the "shell" executor'),
    'Using Shell executor...',
    sectionEnd(epoch, 'prepare_executor'),
    // A second later would end a job that runs a fraction of a second before its script started.
    sectionStart(epoch, 'step_script', 'Executing "step_script" stage of the job script'),
    `${GREEN}$ npm run ${job.name}${RESET}`,
  ];
  const written = pipelineStore(w).scripts.get(job.id)?.log;
  if (written != null) lines.push(...written.replace(/\n$/, '').split('\n'));
  else for (let i = 1; i <= steps; i++) lines.push(`${job.name}: step ${i} of ${steps} done`);
  return lines;
}

/** The log as it stands: nothing before the job runs, a growing part while it runs, the end once it ended. */
export function jobLog(w: World, job: JobRec, state: JobState): string {
  if (state.startedAt === null) return '';
  const body = fullLog(w, job, state);
  const epoch = Math.floor((state.finishedAt ?? state.startedAt) / 1000);
  if (state.status === 'running' || state.status === 'canceled') {
    const shown = body.slice(0, Math.max(1, Math.floor(body.length * state.progress)));
    return shown.map((line) => `${line}\n`).join('');
  }
  // A log a scenario wrote says itself why its job failed.
  const why = pipelineStore(w).scripts.get(job.id)?.log != null ? [] : failureLines(job).slice(0, 2);
  const tail =
    state.status === 'failed'
      ? [...why, sectionEnd(epoch, 'step_script'), failureLines(job)[2] as string]
      : [sectionEnd(epoch, 'step_script'), `${GREEN}Job succeeded${RESET}`];
  return [...body, ...tail].map((line) => `${line}\n`).join('');
}
