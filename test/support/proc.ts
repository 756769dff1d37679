import { readdirSync, readFileSync } from 'node:fs';

/**
 * Resolves once a thread of process `pid` sleeps in one of the kernel's `waits` (its wait channel,
 * Linux's /proc/PID/task/TID/wchan): a test then knows the process got there, without guessing a
 * delay. `wait_for_partner` (older kernels: `fifo_open`) is an open(2) of a FIFO nobody writes to.
 */
export async function waitForKernelWait(pid: number, waits: string[], timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (threadWaits(pid).some((wait) => waits.includes(wait))) return;
    if (Date.now() > deadline) throw new Error(`process ${pid} never waited in ${waits.join(' or ')}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const FIFO_OPEN_WAITS = ['wait_for_partner', 'fifo_open'];

function threadWaits(pid: number): string[] {
  try {
    return readdirSync(`/proc/${pid}/task`).map((tid) => readFileSync(`/proc/${pid}/task/${tid}/wchan`, 'utf8').trim());
  } catch {
    // The process ended (or /proc is not there): nothing waits.
    return [];
  }
}
