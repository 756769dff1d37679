import type { OptionSpec } from '../../cli/spec.js';
import type { Context } from '../../context.js';
import { stringifyJson } from '../../json.js';
import { pickFields } from '../../output/format.js';
import { write } from '../../output/writer.js';

/** What an event is about: `downstream` is a pipeline a trigger job of the followed one started. */
export type EventType = 'pipeline' | 'downstream' | 'job' | 'merge_request' | 'storage_move' | 'log';

export interface EventFlags {
  events?: boolean;
}

export const EVENTS_OPTION: OptionSpec = {
  flags: '--events',
  help: 'stdout becomes NDJSON for scripts: one line per status change, then a "result" line with the exit code and the final record',
};

/**
 * The NDJSON a wait writes with --events: `{"type","id","status",…,"at"}` once per status change of
 * each thing it follows, then `{"type":"result","exit_code",["message"],"record"}` last. Without
 * --events every call does nothing, and the wait prints as it always did.
 */
export class WaitEvents {
  private readonly last = new Map<string, string>();
  /** Lines are stamped when the change is seen and written in that order, callers that cannot wait included. */
  private written: Promise<void> = Promise.resolve();

  constructor(
    private readonly ctx: Context,
    readonly enabled: boolean,
  ) {}

  /** One line when `type` `id` has a status other than the last one written for it. */
  status(type: EventType, id: number | string, status: string, extra: Record<string, unknown> = {}): Promise<void> {
    if (!this.enabled) return this.written;
    const key = `${type}:${id}`;
    if (this.last.get(key) === status) return this.written;
    this.last.set(key, status);
    return this.line({ type, id, status, ...extra, at: new Date(this.ctx.now()).toISOString() });
  }

  /** A line that is not a status change (a piece of a job's log). */
  line(event: Record<string, unknown>): Promise<void> {
    if (!this.enabled) return this.written;
    const text = `${stringifyJson(event)}\n`;
    this.written = this.written.then(() => write(this.ctx.stdout, text));
    return this.written;
  }

  /**
   * The wait's end: with --events the result line (the record narrowed by --fields if given), else the
   * record printed as the command always printed it. The caller still fails with the exit code after.
   */
  async end(record: unknown, fields: string[], exitCode: number, message?: string): Promise<void> {
    if (!this.enabled) return this.ctx.printRecord(record, fields);
    await this.written;
    const chosen = this.ctx.globals.fields;
    const shown = chosen ? pickFields(record, chosen) : record;
    await this.line({ type: 'result', exit_code: exitCode, ...(message === undefined ? {} : { message }), record: shown });
  }

  /** A wait that ended before there was a record (no pipeline appeared): with --events the result line without one. */
  async endWithout(exitCode: number, message: string): Promise<void> {
    if (!this.enabled) return;
    await this.written;
    await this.line({ type: 'result', exit_code: exitCode, message });
  }
}
