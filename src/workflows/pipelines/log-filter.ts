import { terminalSafe } from '../../output/terminal-safe.js';

/**
 * How a job log reaches stdout. `raw`: the bytes as the runner wrote them. `plain`: text only:
 * the runner's markup (collapsible-section markers, colours) and every other escape sequence (CSI,
 * OSC such as links, clipboard writes and titles, DCS, APC, PM, SOS, whichever terminator), C1
 * controls (as UTF-8 or as lone bytes), DEL and every C0 control but tab, newline and carriage
 * return are removed, every other byte kept. `terminal`: colours, the line erase that ends a
 * section marker (it hides the marker) and a line erase of its own (it hides nothing printed)
 * kept, since a terminal renders them, and any other control character shown as a visible escape
 * so that a log cannot drive the terminal.
 */
export type LogMode = 'raw' | 'plain' | 'terminal';

const SECTION_MARKER = /section_(?:start|end):\d+:[^\r\n]*?\r\u001b\[0?K/g;
// In latin1 text, one character per byte. A string sequence (OSC, DCS, SOS, PM, APC) ends at BEL
// or ST; one with no end goes to the end of the line, as a terminal would swallow it.
const ESCAPE_SEQUENCE =
  /\u001b(?:\[[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]|[\]PX^_][^\u0007\u001b\n]*(?:\u0007|\u001b\\)?|[\u0020-\u002f]*[\u0030-\u007e])?/g;
// A C1 control as UTF-8 (C2 80-9F) goes, and so does an 80-9F byte that no UTF-8 lead byte before
// it claims; one within a character (the 9C of ✓, E2 9C 93) stays. Looking behind only where such
// a byte is keeps a log of mostly non-ASCII text fast.
const CONTROL_BYTES =
  /\u00c2[\u0080-\u009f]|(?<![\u00c3-\u00f4]|[\u00e0-\u00f4][\u0080-\u00bf]|[\u00f0-\u00f4][\u0080-\u00bf]{2})[\u0080-\u009f]|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
// Colours (SGR), a section marker, a line erase not after a carriage return, and a carriage return
// that ends a line; any other carriage return would hide what the line showed before it.
const RENDERED = /\u001b\[[0-9;]*m|section_(?:start|end):\d+:[^\r\n]*?\r\u001b\[0?K|\u001b\[0?K|\r(?=\n)/g;
const NEWLINE = 0x0a;

/** Filters a log given in pieces; markup is only recognised within whole lines, so a partial line waits for its end. */
export class LogFilter {
  /** The pieces of a line that has not ended yet, joined once it does (joining per piece is quadratic). */
  private pending: Buffer[] = [];
  /** Whether what was pushed so far ends within a line. */
  private midLine = false;

  constructor(private readonly mode: LogMode) {}

  push(chunk: Buffer): Buffer {
    if (chunk.length) this.midLine = chunk[chunk.length - 1] !== NEWLINE;
    if (this.mode === 'raw') return chunk;
    const end = chunk.lastIndexOf(NEWLINE) + 1;
    if (end === 0) {
      if (chunk.length) this.pending.push(chunk);
      return Buffer.alloc(0);
    }
    const lines = this.pending.length ? Buffer.concat([...this.pending, chunk.subarray(0, end)]) : chunk.subarray(0, end);
    this.pending = end < chunk.length ? [chunk.subarray(end)] : [];
    return this.render(lines);
  }

  /** What is left once the log is complete: its last line, if it had no newline. */
  end(): Buffer {
    const rest = Buffer.concat(this.pending);
    this.pending = [];
    this.midLine = false;
    return this.render(rest);
  }

  /** Before the log is given again from its start: what is left, ended with a newline so the new start is a line of its own. */
  restart(): Buffer {
    const open = this.midLine;
    const rest = this.end();
    return open ? Buffer.concat([rest, Buffer.from('\n')]) : rest;
  }

  private render(lines: Buffer): Buffer {
    if (lines.length === 0) return lines;
    if (this.mode === 'plain') return Buffer.from(plainText(lines.toString('latin1')), 'latin1');
    return Buffer.from(renderForTerminal(lines.toString('utf8')), 'utf8');
  }
}

// latin1 maps each byte to one character and back, so bytes that are not markup stay as they were.
function plainText(bytes: string): string {
  return bytes.replace(SECTION_MARKER, '').replace(ESCAPE_SEQUENCE, '').replace(CONTROL_BYTES, '');
}

function renderForTerminal(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(RENDERED)) {
    // A marker's own text is shown safely; the erase after it hides only that text.
    const erase = match[0].startsWith('section_') ? match[0].lastIndexOf('\r') : 0;
    const kept = terminalSafe(match[0].slice(0, erase), { multiline: true }) + match[0].slice(erase);
    out += terminalSafe(text.slice(last, match.index), { multiline: true }) + kept;
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
