/** Exit codes are part of the interface: scripts depend on them (README, "Exit codes"). */
export const ExitCode = {
  ok: 0,
  failure: 1,
  usage: 2,
  unauthenticated: 3,
  forbidden: 4,
  notFound: 5,
  rejected: 6,
  rateLimited: 7,
  incomplete: 8,
  captcha: 9,
  /** A question svc answers with its exit code was answered no (`job-token-scope get --project`). */
  answeredNo: 10,
  interrupted: 130,
} as const;

/** An expected, already-explained failure: the message is the one line the user sees. */
export class SvcError extends Error {
  readonly exitCode: number;
  readonly details?: string;

  constructor(message: string, exitCode: number = ExitCode.failure, details?: string) {
    super(message);
    this.name = 'SvcError';
    this.exitCode = exitCode;
    this.details = details;
  }
}

export class UsageError extends SvcError {
  constructor(message: string) {
    super(message, ExitCode.usage);
    this.name = 'UsageError';
  }
}

export class IncompleteError extends SvcError {
  constructor(message: string) {
    super(message, ExitCode.incomplete);
    this.name = 'IncompleteError';
  }
}

export class InterruptedError extends SvcError {
  constructor(message = 'interrupted') {
    super(message, ExitCode.interrupted);
    this.name = 'InterruptedError';
  }
}
