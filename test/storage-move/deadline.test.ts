import { afterEach, describe, expect, it, vi } from 'vitest';
import { InterruptedError } from '../../src/errors.js';
import { MAX_TIMER_MS, sleep } from '../../src/workflows/shared/clock.js';
import { Deadline } from '../../src/workflows/shared/deadline.js';
import { FakeClock } from './fake-clock.js';

const never = new AbortController().signal;

describe('Deadline', () => {
  it("answers at the deadline while the work is still pending, and drops the work's late failure", async () => {
    const clock = new FakeClock();
    const deadline = Deadline.after(clock, 10_000);
    let fail!: (error: Error) => void;
    const work = new Promise<string>((_resolve, reject) => {
      fail = reject;
    });
    let answer: unknown;
    void deadline.race(work).then((r) => {
      answer = r;
    });
    await clock.advance(9_999);
    expect(answer).toBeUndefined();
    expect(deadline.remainingMs()).toBe(1);
    await clock.advance(1);
    expect(answer).toEqual({ expired: true });
    expect(deadline.expired()).toBe(true);
    fail(new Error('late'));
    await clock.advance(0);
  });

  it("gives the work's value or error when it ends first, and leaves no timer behind", async () => {
    const clock = new FakeClock();
    const deadline = Deadline.after(clock, 10_000);
    expect(await deadline.race(Promise.resolve(7))).toEqual({ expired: false, value: 7 });
    await expect(deadline.race(Promise.reject(new InterruptedError()))).rejects.toBeInstanceOf(InterruptedError);
    expect(clock.sleeping).toBe(0);
  });

  it('without a limit never expires', async () => {
    const clock = new FakeClock();
    const deadline = Deadline.after(clock, undefined);
    await clock.advance(10 ** 12);
    expect(deadline.remainingMs()).toBe(Number.POSITIVE_INFINITY);
    expect(await deadline.race(Promise.resolve('done'))).toEqual({ expired: false, value: 'done' });
  });
});

describe('sleep', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits the whole time past what one Node timer holds', async () => {
    vi.useFakeTimers();
    let woke = false;
    void sleep(MAX_TIMER_MS + 10, never).then(() => {
      woke = true;
    });
    await vi.advanceTimersByTimeAsync(MAX_TIMER_MS);
    expect(woke).toBe(false);
    await vi.advanceTimersByTimeAsync(10);
    expect(woke).toBe(true);
  });

  it('stops at once when interrupted', async () => {
    const controller = new AbortController();
    const slept = sleep(60_000, controller.signal);
    controller.abort();
    await expect(slept).rejects.toBeInstanceOf(InterruptedError);
  });
});
