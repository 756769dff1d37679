/**
 * Runs a command on a real pseudo-terminal (python3's `pty` module, see pty-run.py), for tests of
 * what a person at a terminal sees and types.
 *
 *   const term = spawnPty(['node', BIN, 'pipeline', 'wait', ...], { env: isolatedEnv(...), columns: 80 });
 *   await term.waitFor('waiting for');        // the screen so far, once it contains the text
 *   term.write('\x03');                       // keys as typed: Ctrl-C is '\x03', Enter is '\r'
 *   const end = await term.exit();            // { exitCode, signal, output, mode }
 *   expect(end.exitCode).toBe(130);
 *   expect(end.mode).toMatchObject({ echo: true, canonical: true });  // the terminal left as found
 *
 * `output` is everything the command wrote to the terminal (stdout and stderr together, with the
 * terminal's `\r\n` line ends and any escape sequences as sent). `mode` is read from the terminal
 * after the command ended, so it shows what the command left behind. `env` is the command's whole
 * environment (add TERM yourself if it matters). `signal(name)` sends a signal to the command itself.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const RUNNER = fileURLToPath(new URL('./pty-run.py', import.meta.url));

export interface PtyOptions {
  env: Record<string, string>;
  /** Terminal size; 80 × 24 unless given. */
  columns?: number;
  rows?: number;
  cwd?: string;
}

export interface TerminalMode {
  echo: boolean;
  canonical: boolean;
  /** ISIG: Ctrl-C sends SIGINT. */
  signals: boolean;
  crToNewline: boolean;
  outputProcessing: boolean;
}

export interface PtyExit {
  exitCode: number | null;
  signal: string | null;
  output: string;
  mode: TerminalMode;
}

export class PtySession {
  private text = '';
  private readonly decoder = new TextDecoder();
  private readonly runner: ChildProcess;
  private readonly started: Promise<number>;
  private readonly ended: Promise<PtyExit>;
  private readonly listeners = new Set<() => void>();

  constructor(argv: string[], options: PtyOptions) {
    const spec = { argv, env: options.env, rows: options.rows ?? 24, columns: options.columns ?? 80, cwd: options.cwd };
    this.runner = spawn('python3', [RUNNER, JSON.stringify(spec)], { stdio: ['pipe', 'pipe', 'inherit', 'pipe'] });
    this.runner.stdout!.on('data', (chunk: Buffer) => {
      this.text += this.decoder.decode(chunk, { stream: true });
      for (const listener of this.listeners) listener();
    });
    const control = this.runner.stdio[3] as NodeJS.ReadableStream;
    const messages: Record<string, unknown>[] = [];
    let buffered = '';
    let onMessage = () => {};
    control.setEncoding('utf8');
    control.on('data', (chunk: string) => {
      buffered += chunk;
      for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
        messages.push(JSON.parse(buffered.slice(0, newline)));
        buffered = buffered.slice(newline + 1);
      }
      onMessage();
    });
    this.started = new Promise((resolve, reject) => {
      onMessage = () => messages[0] && resolve(messages[0].pid as number);
      this.runner.once('error', reject);
    });
    this.ended = new Promise((resolve, reject) => {
      this.runner.once('close', (code) => {
        const end = messages.find((m) => 'mode' in m);
        if (!end) return reject(new Error(`pty runner ended (${code}) without the command's exit status; output:\n${this.text}`));
        resolve({
          exitCode: end.exitCode as number | null,
          signal: end.signal as string | null,
          mode: end.mode as TerminalMode,
          output: this.output,
        });
      });
    });
    this.ended.catch(() => {});
  }

  /** Everything written to the terminal so far. */
  get output(): string {
    return this.text;
  }

  /** Types `keys` on the terminal. */
  write(keys: string): void {
    this.runner.stdin!.write(keys);
  }

  /** Sends a signal to the command (not through the terminal: for that, write '\x03'). */
  async signal(name: NodeJS.Signals): Promise<void> {
    process.kill(await this.started, name);
  }

  /** Resolves with the output so far once it contains `pattern`; rejects after `timeoutMs`. */
  waitFor(pattern: string | RegExp, timeoutMs = 120_000): Promise<string> {
    const found = () => (typeof pattern === 'string' ? this.text.includes(pattern) : pattern.test(this.text));
    return new Promise((resolve, reject) => {
      const done = () => {
        this.listeners.delete(check);
        clearTimeout(timer);
      };
      const check = () => {
        if (!found()) return;
        done();
        resolve(this.text);
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${String(pattern)} on the terminal within ${timeoutMs} ms; it shows:\n${this.text.slice(-2000)}`));
      }, timeoutMs);
      const gone = () => {
        if (found()) return check();
        done();
        reject(new Error(`the command ended without ${String(pattern)} on the terminal; it showed:\n${this.text.slice(-2000)}`));
      };
      this.listeners.add(check);
      this.ended.then(gone, gone);
      check();
    });
  }

  /** The command's exit, once it ended and the terminal was read to the end; killed and rejected after `timeoutMs`. */
  async exit(timeoutMs = 120_000): Promise<PtyExit> {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void this.signal('SIGKILL').catch(() => {});
    }, timeoutMs);
    const end = await this.ended.finally(() => clearTimeout(timer));
    if (timedOut) throw new Error(`the command did not end within ${timeoutMs} ms (killed); it showed:\n${this.text.slice(-2000)}`);
    return end;
  }
}

/** Starts `argv` (command and arguments) on a new pseudo-terminal. */
export function spawnPty(argv: string[], options: PtyOptions): PtySession {
  return new PtySession(argv, options);
}
