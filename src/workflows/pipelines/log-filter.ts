import { terminalSafe } from '../../output/terminal-safe.js';

/**
 * How a job log reaches stdout. `raw`: the bytes as the runner wrote them. `plain`: without the
 * runner's markup (collapsible-section markers, ANSI sequences), every other byte kept. `terminal`:
 * colours and the markers' line erase kept, since a terminal renders them, and any other control
 * character shown as a visible escape so that a log cannot drive the terminal.
 */
export type LogMode = 'raw' | 'plain' | 'terminal';

const SECTION_MARKER = /section_(?:start|end):\d+:[^\r\n]*?\r\u001b\[0?K/g;
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
// Colours (SGR), the line erase of section markers with the carriage return before it, and a
// carriage return that ends a line; any other one would hide what the line showed before it.
const RENDERED = /\u001b\[[0-9;]*m|\r?\u001b\[0?K|\r(?=\n)/g;
const NEWLINE = 0x0a;

/** Filters a log given in pieces; markup is only recognised within whole lines, so a partial line waits for its end. */
export class LogFilter {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly mode: LogMode) {}

  push(chunk: Buffer): Buffer {
    if (this.mode === 'raw') return chunk;
    const data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const end = data.lastIndexOf(NEWLINE) + 1;
    this.pending = data.subarray(end);
    return this.render(data.subarray(0, end));
  }

  /** What is left once the log is complete: its last line, if it had no newline. */
  end(): Buffer {
    const rest = this.pending;
    this.pending = Buffer.alloc(0);
    return this.render(rest);
  }

  private render(lines: Buffer): Buffer {
    if (lines.length === 0) return lines;
    if (this.mode === 'plain') {
      // latin1 maps each byte to one character and back, so bytes that are not markup stay as they were.
      return Buffer.from(lines.toString('latin1').replace(SECTION_MARKER, '').replace(ANSI, ''), 'latin1');
    }
    return Buffer.from(renderForTerminal(lines.toString('utf8')), 'utf8');
  }
}

function renderForTerminal(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(RENDERED)) {
    out += terminalSafe(text.slice(last, match.index), { multiline: true }) + match[0];
    last = match.index + match[0].length;
  }
  return out + terminalSafe(text.slice(last), { multiline: true });
}

/** The last `count` lines of a log (a final newline does not start another line). */
export function lastLines(log: Buffer, count: number): Buffer {
  if (count === 0) return Buffer.alloc(0);
  let index = log.length - (log.at(-1) === NEWLINE ? 1 : 0);
  for (let seen = 0; seen < count; seen++) {
    index = index > 0 ? log.lastIndexOf(NEWLINE, index - 1) : -1;
    if (index < 0) return log;
  }
  return log.subarray(index + 1);
}
