import type { Clock } from './clock.js';

/** Lines that show how a long run is going: redrawn on a terminal, printed now and then elsewhere. */
export interface StatusLines {
  update(lines: string[]): void;
  stop(): void;
}

/** What a workflow needs from whoever runs it; a command adapts its context to this. */
export interface WorkflowHost {
  clock: Clock;
  /** Aborts when the user interrupts. */
  signal: AbortSignal;
  /** A person reads stderr on a terminal: one line per event is welcome there, not in a log. */
  interactive: boolean;
  info(line: string): void;
  warn(line: string): void;
  debug(line: string): void;
  status(text: string): Promise<StatusLines>;
  /** Told each time a followed move has a new state (for --events); none: nobody listens. */
  moveChanged?(kind: string, containerId: number, move: { id: number; state: string }): void;
}
