/**
 * Text from a server (names, descriptions, error bodies) must not drive the terminal it is shown on:
 * `ESC[2J` clears the screen, OSC 52 writes the clipboard, `\r` overwrites what was printed. Every
 * control character (C0, DEL, C1) is shown as a visible escape instead:
 *
 *   ESC → `\e`;  tab → `\t`, LF → `\n`, CR → `\r`;  any other → `\xHH`, the code point in two hex
 *   digits (U+0007 → `\x07`, DEL → `\x7f`, the C1 CSI U+009B → `\x9b`).
 *
 * The bidirectional controls are shown as `\uHHHH` (U+202E → `\u202e`): printed raw, a right-to-left
 * override makes a terminal show the rest of the line backwards (`txt.exe` as `exe.txt`).
 *
 * So that each escape reads one way, a backslash that a reader could take for the start of one
 * (followed by `\`, `e`, `x`, `u`, `t`, `n`, `r`, or by a control character, whose escape starts with a
 * backslash) is doubled: the name `a\nb` (a backslash, then n) is shown as `a\\nb`, a backslash then ESC
 * as `\\\e` (not `\\e`, which is a backslash then e), while `C:\Users` is shown as it is.
 * Multi-line text keeps a backslash before a tab or newline it keeps, as in a shell's `make \`.
 */

// C0, DEL and C1, then the bidirectional controls: ALM, LRM and RLM, the embeddings and overrides
// (LRE, RLE, PDF, LRO, RLO) and the isolates (LRI, RLI, FSI, PDI).
const CONTROLS = '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
const CONTROL = new RegExp(`[${CONTROLS}]`);
const CONTROL_OR_AMBIGUOUS_BACKSLASH = new RegExp(`[${CONTROLS}]|\\\\(?=([\\\\extnru${CONTROLS}]))`, 'g');
const CONTROL_OR_BACKSLASH = new RegExp(`[${CONTROLS}\\\\]`, 'g');

export interface TerminalSafeOptions {
  /** Keep tab and newline as they are, for text that spans lines (default: escape them too). */
  multiline?: boolean;
}

/** `text` with every control character shown as a visible escape (see the top of this file). */
export function terminalSafe(text: string, options: TerminalSafeOptions = {}): string {
  if (!CONTROL.test(text) && !text.includes('\\')) return text;
  const kept = (char: string | undefined) => options.multiline && (char === '\t' || char === '\n');
  return text.replace(CONTROL_OR_AMBIGUOUS_BACKSLASH, (char: string, next: string | undefined) => {
    if (char === '\\') return kept(next) ? char : '\\\\';
    return kept(char) ? char : controlEscape(char);
  });
}

/** The documented TSV escaping: every backslash doubled, every control character escaped as above. */
export function tsvEscape(text: string): string {
  if (!CONTROL.test(text) && !text.includes('\\')) return text;
  return text.replace(CONTROL_OR_BACKSLASH, (char) => (char === '\\' ? '\\\\' : controlEscape(char)));
}

function controlEscape(char: string): string {
  switch (char) {
    case '\t':
      return '\\t';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\u001b':
      return '\\e';
    default: {
      const code = char.charCodeAt(0);
      return code > 0xff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\x${code.toString(16).padStart(2, '0')}`;
    }
  }
}
