import { SvcError } from '../../src/errors.js';
import { HttpClient, type HttpClientOptions } from '../../src/http/client.js';

export const TOKEN = 'glpat-http-drill-token-5d1c9e';

/** A client as the CLI builds one, for the scripted server's case at `baseUrl`. */
export function client(baseUrl: string, options: Partial<HttpClientOptions> = {}): HttpClient {
  return new HttpClient({
    baseUrl,
    credentials: { token: TOKEN, type: 'private' },
    userAgent: 'svc-test',
    retries: 0,
    timeoutMs: 5_000,
    ...options,
  });
}

/** How a call ended, as the CLI would report it: the exit code and the one line, or the value. */
export async function outcome<T>(call: () => Promise<T>): Promise<{ ok: T } | { exitCode: number; message: string; name: string }> {
  try {
    return { ok: await call() };
  } catch (error) {
    if (error instanceof SvcError) return { exitCode: error.exitCode, message: error.message, name: error.name };
    // Anything else reaches the user as "unexpected error": a test comparing outcomes fails on it.
    return { exitCode: -1, message: `unexpected: ${String(error)}`, name: 'unexpected' };
  }
}

/** Collects every record of a listing. */
export async function allItems<T>(pages: AsyncGenerator<{ items: T[] }>): Promise<T[]> {
  const out: T[] = [];
  for await (const page of pages) out.push(...page.items);
  return out;
}
