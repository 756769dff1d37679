// Routes matched on the raw path. Among the patterns that fit a path, the
// most specific wins (a literal segment beats a parameter at the first place
// they differ), so the order in which resource files mount does not matter.
import type { Ctx } from './context.js';

type AuthLevel = 'public' | 'user' | 'admin';

interface RouteOpts {
  auth?: AuthLevel;
  /** a CI job token is a credential here (reference §4.5) */
  job?: boolean;
  premium?: boolean;
  /** outside /api/v4 */
  raw?: boolean;
  /** token scopes accepted here besides `api` (and `read_api` for reads); `all`: any scope */
  scopes?: readonly string[] | 'all';
}

export interface Route {
  method: string;
  pattern: string;
  parts: string[];
  auth: AuthLevel;
  job: boolean;
  premium: boolean;
  scopes: readonly string[] | 'all';
  handler: (ctx: Ctx) => void | Promise<void>;
}

interface Match {
  route: Route | null;
  allow: string[];
  rawParts: string[];
}

/** Negative when `a` is more specific than `b`. */
function bySpecificity(a: Route, b: Route): number {
  for (let i = 0; i < a.parts.length; i++) {
    const pa = a.parts[i]!.startsWith(':');
    const pb = b.parts[i]!.startsWith(':');
    if (pa !== pb) return pa ? 1 : -1;
  }
  return 0;
}

export class Router {
  private readonly byLength = new Map<number, Route[]>();
  private readonly keys = new Set<string>();

  add(method: string, pattern: string, opts: RouteOpts, handler: Route['handler']): void {
    const full = opts.raw ? pattern : `/api/v4${pattern}`;
    const key = `${method} ${full.replace(/:[a-z_]+/g, ':')}`;
    if (this.keys.has(key)) throw new Error(`route registered twice: ${method} ${pattern}`);
    this.keys.add(key);
    const route: Route = {
      method,
      pattern,
      parts: full.split('/'),
      auth: opts.auth ?? 'user',
      job: !!opts.job,
      premium: !!opts.premium,
      scopes: opts.scopes ?? [],
      handler,
    };
    const list = this.byLength.get(route.parts.length) ?? [];
    list.push(route);
    list.sort(bySpecificity);
    this.byLength.set(route.parts.length, list);
  }

  match(method: string, rawPath: string, premium: boolean): Match {
    const rawParts = rawPath.split('/');
    const allow = new Set<string>();
    let found: Route | null = null;
    const m = method === 'HEAD' ? 'GET' : method;
    for (const r of this.byLength.get(rawParts.length) ?? []) {
      if (r.premium && !premium) continue;
      if (!fits(r.parts, rawParts)) continue;
      allow.add(r.method);
      if (!found && r.method === m) found = r;
    }
    return { route: found, allow: [...allow], rawParts };
  }

  /** Routes under `prefix` whose handlers get the parent record, resolved once per request. */
  scope<T>(prefix: string, resolve: (ctx: Ctx) => T): Scope<T> {
    return new Scope(this, prefix, resolve);
  }

  private readonly writeObservers: WriteObserver[] = [];

  observeWrites(observer: WriteObserver): void {
    this.writeObservers.push(observer);
  }

  /** Runs a handler; around a write, tells the observers, and once it succeeded (2xx) runs what they returned. */
  async observed(ctx: Ctx, run: () => void | Promise<void>): Promise<void> {
    if (ctx.method === 'GET' || ctx.method === 'HEAD' || this.writeObservers.length === 0) return run();
    const after = this.writeObservers.map((observe) => observe(ctx));
    await run();
    if (ctx.res.statusCode < 300) for (const done of after) done?.();
  }
}

/** Sees a write before its handler runs (the records as they were); what it returns runs after a success. */
export type WriteObserver = (ctx: Ctx) => (() => void) | undefined;

function fits(parts: string[], rawParts: string[]): boolean {
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.startsWith(':') ? rawParts[i] === '' : part !== rawParts[i]) return false;
  }
  return true;
}

type ScopedHandler<T> = (ctx: Ctx, parent: T) => void | Promise<void>;

export class Scope<T> {
  constructor(
    private readonly router: Router,
    private readonly prefix: string,
    private readonly resolve: (ctx: Ctx) => T,
  ) {}

  /** The same mount point, handing handlers `f(parent)`. */
  map<U>(f: (parent: T) => U): Scope<U> {
    return new Scope(this.router, this.prefix, (ctx) => f(this.resolve(ctx)));
  }

  add(method: string, path: string, opts: RouteOpts, handler: ScopedHandler<T>): void {
    this.router.add(method, `${this.prefix}${path}`, opts, (ctx) => this.router.observed(ctx, () => handler(ctx, this.resolve(ctx))));
  }

  get(path: string, opts: RouteOpts, handler: ScopedHandler<T>): void {
    this.add('GET', path, opts, handler);
  }

  post(path: string, opts: RouteOpts, handler: ScopedHandler<T>): void {
    this.add('POST', path, opts, handler);
  }

  put(path: string, opts: RouteOpts, handler: ScopedHandler<T>): void {
    this.add('PUT', path, opts, handler);
  }

  delete(path: string, opts: RouteOpts, handler: ScopedHandler<T>): void {
    this.add('DELETE', path, opts, handler);
  }
}
