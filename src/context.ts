import type { Readable, Writable } from 'node:stream';
import { Chalk, type ChalkInstance } from 'chalk';
import { ExitCode, SvcError } from './errors.js';
import { packageVersion } from './version.js';
import { isCi } from './config/ci-env.js';
import { terminalSafe } from './output/terminal-safe.js';
import { redactSecrets } from './http/redact.js';
import { displayUrl } from './http/urls.js';
import type { GlobalValues } from './config/global-options.js';
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS } from './http/types.js';
import type { ConfigStore } from './config/store.js';
import type { Target } from './config/resolve.js';
import type { HttpClient, HttpClientOptions } from './http/client.js';
import type { OutputSettings } from './output/writer.js';
import type { ColumnSpec } from './output/columns.js';

export type GlobalOptions = GlobalValues;

export interface Io {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  isTTY: { stdin: boolean; stdout: boolean; stderr: boolean };
  signal: AbortSignal;
  /**
   * Runs `cleanup` if the process is ended at once (a second Ctrl-C), before anything else could
   * clean up; returns the function that forgets it. Given by bin/, which owns the process.
   */
  onForcedExit?: (cleanup: () => void) => () => void;
  /** The time stamped on wait events (ms since the epoch); default the system clock. */
  now?: () => number;
}

export interface Spinner {
  update(text: string): void;
  stop(): void;
}

/** Everything a command may touch, built once per invocation; tests reach it only through the CLI. */
export class Context {
  readonly io: Io;
  readonly globals: GlobalOptions;
  readonly version = packageVersion();
  private configStore?: ConfigStore;
  private client?: HttpClient;
  /** Every client made, for the tokens they hold: --debug redacts them all. */
  private readonly clients: HttpClient[] = [];
  private resolvedTarget?: Target;
  private chalkInstance?: ChalkInstance;
  private stdinContent?: Promise<Buffer>;

  constructor(io: Io, globals: GlobalOptions) {
    this.io = io;
    this.globals = globals;
  }

  get env(): NodeJS.ProcessEnv {
    return this.io.env;
  }

  get stdout(): Writable {
    return this.io.stdout;
  }

  get signal(): AbortSignal {
    return this.io.signal;
  }

  /** Now, as wait events stamp it. */
  now(): number {
    return this.io.now?.() ?? Date.now();
  }

  get debugEnabled(): boolean {
    return Boolean(this.globals.debug) || this.env.SVC_DEBUG === '1';
  }

  /** Spinners, prompts and colour only for a person at a terminal. */
  get interactive(): boolean {
    return this.io.isTTY.stderr && !isCi(this.env) && !this.globals.quiet;
  }

  /** Spinners and progress bars: a terminal that wants animation (not NO_COLOR, and with a width). */
  get animated(): boolean {
    const columns = (this.io.stderr as { columns?: number }).columns;
    return this.interactive && this.env.NO_COLOR === undefined && (columns === undefined || columns > 0);
  }

  get chalk(): ChalkInstance {
    this.chalkInstance ??= new Chalk({ level: colorLevel(this.env, this.io.isTTY.stdout, this.globals.quiet) });
    return this.chalkInstance;
  }

  get stderrChalk(): ChalkInstance {
    return new Chalk({ level: colorLevel(this.env, this.io.isTTY.stderr, this.globals.quiet) });
  }

  get output(): OutputSettings {
    return {
      format: this.globals.output ?? 'table',
      fields: this.globals.fields,
      stdoutIsTTY: this.io.isTTY.stdout,
      chalk: this.chalk,
      warn: (line) => this.warn(line),
      note: (line) => this.info(line),
    };
  }

  /** Prints one record in the chosen format; the writers load on first use, so help never pays for them. */
  async printRecord(record: unknown, fields: ColumnSpec[]): Promise<void> {
    const { writeRecord } = await import('./output/writer.js');
    await writeRecord(this.stdout, this.output, record, fields);
  }

  /** Prints a listing a page per write (see `printRecord`). */
  async printPages(pages: AsyncIterable<unknown[]>, columns: ColumnSpec[]): Promise<{ count: number }> {
    const { writePages } = await import('./output/writer.js');
    return writePages(this.stdout, this.output, pages, columns);
  }

  /** All of stdin, read once (for `--input -`, `@-` and piped secrets). */
  readStdin(): Promise<Buffer> {
    this.stdinContent ??= (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of this.io.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
      return Buffer.concat(chunks);
    })();
    return this.stdinContent;
  }

  /** One human line on stderr (never data); text from the server in it cannot drive the terminal. */
  info(line: string): void {
    if (!this.globals.quiet) this.io.stderr.write(`${terminalSafe(line)}\n`);
  }

  warn(line: string): void {
    const text = terminalSafe(line.startsWith('warning:') ? line : `warning: ${line}`);
    this.io.stderr.write(`${this.stderrChalk.yellow(text)}\n`);
  }

  /** A line under --debug, redacted as error lines are: a URL, header or body in it may carry a token. */
  debug(line: string): void {
    if (!this.debugEnabled) return;
    const redacted = displayUrl(this.redact(line));
    this.io.stderr.write(`${this.stderrChalk.dim(`[debug] ${terminalSafe(redacted, { multiline: true })}`)}\n`);
  }

  /** `text` with every token this run knows of hidden: for debug lines, and for the error line and stack the run ends with. */
  redact(text: string): string {
    return redactSecrets(text, this.secrets());
  }

  /** Every token this run knows of: given, resolved from a profile, or held (perhaps refreshed) by a client. */
  private secrets(): Array<string | undefined> {
    const resolved = this.resolvedTarget?.token;
    return [
      this.globals.token,
      this.env.SVC_TOKEN,
      this.env.CI_JOB_TOKEN,
      this.env.SVC_TRIGGER_TOKEN,
      resolved?.value,
      resolved?.refreshToken,
      ...this.clients.flatMap((client) => client.secrets()),
    ];
  }

  async config(): Promise<ConfigStore> {
    if (!this.configStore) {
      const { ConfigStore } = await import('./config/store.js');
      this.configStore = new ConfigStore(this.env, this.signal, (line) => this.debug(line));
    }
    return this.configStore;
  }

  async target(): Promise<Target> {
    if (!this.resolvedTarget) {
      const { resolveTarget } = await import('./config/resolve.js');
      this.resolvedTarget = resolveTarget(this.globals, this.env, await this.config());
      for (const line of this.resolvedTarget.warnings) this.warn(line);
    }
    return this.resolvedTarget;
  }

  /** The HTTP client for the resolved URL and credentials; `requireToken` refuses to go on without one. */
  async http(options: { requireToken?: boolean } = {}): Promise<HttpClient> {
    if (this.client) return this.client;
    const target = await this.target();
    if (!target.url) {
      throw new SvcError('no service URL: pass --url, set SVC_URL, or run `svc auth login --url URL`', ExitCode.usage);
    }
    if (options.requireToken && !target.token) {
      throw new SvcError('no token: set SVC_TOKEN, pass --token, or run `svc auth login`', ExitCode.usage);
    }
    const token = target.token;
    // A profile's OAuth pair is refreshed and saved under the config file's lock, so that parallel
    // runs take the pair one of them refreshed instead of spending the rotated refresh token again.
    const credentialStore = target.tokenFromProfile ? (await this.config()).credentialStore(target.profileName) : undefined;
    this.client = await this.createHttp({
      baseUrl: target.url.value,
      credentials: token
        ? { token: token.value, type: token.type, refreshToken: token.refreshToken, oauthClientId: token.oauthClientId }
        : undefined,
      caFile: target.caFile,
      credentialStore,
      // Without a store (a token from flags or the environment) the refreshed pair lives for this run.
      onCredentialsRefreshed: () => this.warn('the OAuth token was refreshed for this run only; store it with `svc auth login` to keep it'),
    });
    return this.client;
  }

  /** A client with the global settings (sudo, timeout, retries, debug) for the given target. */
  async createHttp(
    target: Pick<HttpClientOptions, 'baseUrl' | 'credentials' | 'caFile' | 'credentialStore' | 'onCredentialsRefreshed'>,
  ): Promise<HttpClient> {
    const { HttpClient } = await import('./http/client.js');
    const client = new HttpClient({
      ...target,
      sudo: this.globals.sudo,
      timeoutMs: this.globals.timeout === undefined ? DEFAULT_TIMEOUT_MS : this.globals.timeout * 1000,
      retries: this.globals.retries ?? DEFAULT_RETRIES,
      userAgent: `svc/${this.version}`,
      signal: this.signal,
      debug: this.debugEnabled ? (line) => this.debug(line) : undefined,
      warn: (line) => this.warn(line),
      notice: (line) => this.info(line),
    });
    this.clients.push(client);
    return client;
  }

  /** An ora spinner on a terminal; nothing at all otherwise. */
  async spinner(text: string): Promise<Spinner> {
    if (!this.animated) return { update() {}, stop() {} };
    const { default: ora } = await import('ora');
    // ora would put stdin in raw mode to hide keys typed meanwhile, which swallows Ctrl-C.
    const spinner = ora({
      text: terminalSafe(text, { multiline: true }),
      stream: this.io.stderr,
      isEnabled: true,
      discardStdin: false,
    }).start();
    return {
      update: (next) => {
        spinner.text = terminalSafe(next, { multiline: true });
      },
      stop: () => spinner.stop(),
    };
  }
}

export function colorLevel(env: NodeJS.ProcessEnv, isTTY: boolean, quiet?: boolean): 0 | 1 | 2 | 3 {
  if (quiet) return 0;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') {
    if (force === '0' || force === 'false') return 0;
    const level = Number(force);
    return (level >= 1 && level <= 3 ? level : 1) as 1 | 2 | 3;
  }
  if (env.NO_COLOR !== undefined || !isTTY || isCi(env) || env.TERM === 'dumb') return 0;
  return 1;
}
