import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { createApiError, exitCodeForStatus, renderErrorBody } from '../../src/http/api-error.js';
import { redactUrl } from '../../src/http/client.js';
import { apiPath, encodePathSegment, encodeQuery, flattenParams } from '../../src/http/encode.js';
import { parseLinkHeader } from '../../src/http/link.js';
import { isRetryable, parseRetryAfter, retryDelayMs } from '../../src/http/retry-policy.js';

describe('parseLinkHeader', () => {
  it('reads every relation of an offset page, keeping URLs verbatim', () => {
    const header =
      '<http://h/api/v4/projects?page=1&per_page=3>; rel="prev", <http://h/api/v4/projects?page=3&per_page=3>; rel="next", ' +
      '<http://h/api/v4/projects?page=1&per_page=3>; rel="first", <http://h/api/v4/projects?page=9&per_page=3>; rel="last"';
    expect(parseLinkHeader(header)).toEqual({
      prev: 'http://h/api/v4/projects?page=1&per_page=3',
      next: 'http://h/api/v4/projects?page=3&per_page=3',
      first: 'http://h/api/v4/projects?page=1&per_page=3',
      last: 'http://h/api/v4/projects?page=9&per_page=3',
    });
  });
  it('handles keyset links with commas in the URL, unquoted rel and several relations', () => {
    const cursor = 'http://h/api/v4/users?cursor=eyJpZCI6IjEsMiJ9&order_by=id';
    expect(parseLinkHeader(`<${cursor}>; rel="next"`).next).toBe(cursor);
    expect(parseLinkHeader('<http://h/a?x=1,2>;rel=next').next).toBe('http://h/a?x=1,2');
    expect(parseLinkHeader('<http://h/a>; rel="next last"')).toEqual({ next: 'http://h/a', last: 'http://h/a' });
  });
  it('returns nothing for an absent or empty header', () => {
    expect(parseLinkHeader(undefined)).toEqual({});
    expect(parseLinkHeader('')).toEqual({});
  });
});

describe('encoding', () => {
  it('apiPath encodes every interpolated value as one segment', () => {
    expect(apiPath`/projects/${'group/sub/my.project'}/repository/files/${'dir/a b+c#?.txt'}`).toBe(
      '/projects/group%2Fsub%2Fmy.project/repository/files/dir%2Fa%20b%2Bc%23%3F.txt',
    );
    expect(apiPath`/projects/${42}/repository/tags/${"v1.0+build/1(rc)!'*"}`).toBe(
      '/projects/42/repository/tags/v1.0%2Bbuild%2F1%28rc%29%21%27%2A',
    );
    expect(encodePathSegment('feature/x+y')).toBe('feature%2Fx%2By');
  });
  it('encodeQuery keeps brackets readable in names only', () => {
    expect(encodeQuery({ 'a[b]': '[x]' })).toBe('a[b]=%5Bx%5D');
  });
  it('encodeQuery sends + as %2B and spaces as %20', () => {
    expect(encodeQuery({ updated_after: '2024-01-01T00:00:00+02:00', search: 'a b&c=d' })).toBe(
      'updated_after=2024-01-01T00%3A00%3A00%2B02%3A00&search=a%20b%26c%3Dd',
    );
  });
  it('flattens arrays, hashes and arrays of hashes into the service shapes', () => {
    expect(
      encodeQuery({
        import_sources: ['github', 'bitbucket'],
        override_params: { visibility: 'private', name: 'x+y' },
        variables: [
          { key: 'A', value: '1' },
          { key: 'B', value: '2' },
        ],
        skip: undefined,
        none: null,
        flag: true,
        n: 0,
      }),
    ).toBe(
      'import_sources[]=github&import_sources[]=bitbucket&override_params[visibility]=private&override_params[name]=x%2By' +
        '&variables[0][key]=A&variables[0][value]=1&variables[1][key]=B&variables[1][value]=2&flag=true&n=0',
    );
  });
  it('keeps deeper nesting in the same bracket forms', () => {
    expect(flattenParams({ a: { b: ['x', 'y'], c: { d: 1 } } })).toEqual([
      ['a[b][]', 'x'],
      ['a[b][]', 'y'],
      ['a[c][d]', '1'],
    ]);
  });
});

describe('renderErrorBody', () => {
  it('renders each body shape the service sends as one line', () => {
    expect(renderErrorBody({ message: '404 Project Not Found' })).toBe('404 Project Not Found');
    expect(renderErrorBody({ error: 'title is missing' })).toBe('title is missing');
    expect(renderErrorBody({ error: 'invalid_token', error_description: 'Token is expired.' })).toBe('invalid_token: Token is expired.');
    expect(renderErrorBody({ message: { name: ['has already been taken'], path: ['is too long', 'is invalid'] } })).toBe(
      'name: has already been taken; path: is too long, is invalid',
    );
    expect(renderErrorBody({ message: { project: { name: ['is blank'] } } })).toBe('project.name: is blank');
    expect(renderErrorBody({ message: { error: 'Your snippet has been recognized as spam' } })).toBe(
      'Your snippet has been recognized as spam',
    );
    expect(renderErrorBody({ message: { base: ['Nope'] } })).toBe('Nope');
    expect(renderErrorBody('Retry later')).toBe('Retry later');
    expect(renderErrorBody('<html><head><title>502 Bad Gateway</title></head><body>x</body></html>')).toBe(
      'an HTML page ("502 Bad Gateway"), probably from a proxy',
    );
    expect(renderErrorBody('first line\nsecond line')).toBe('first line');
    expect(renderErrorBody(undefined)).toBeUndefined();
    expect(renderErrorBody({})).toBeUndefined();
  });
});

describe('createApiError', () => {
  const ctx = { method: 'GET', path: '/projects/1', hasToken: true, credential: 'none' } as const;
  it('maps statuses to exit codes', () => {
    const table: Array<[number, number]> = [
      [400, ExitCode.rejected],
      [401, ExitCode.unauthenticated],
      [403, ExitCode.forbidden],
      [404, ExitCode.notFound],
      [405, ExitCode.rejected],
      [409, ExitCode.rejected],
      [412, ExitCode.rejected],
      [413, ExitCode.rejected],
      [414, ExitCode.rejected],
      [422, ExitCode.rejected],
      [429, ExitCode.rateLimited],
      [500, ExitCode.failure],
      [503, ExitCode.failure],
    ];
    for (const [status, code] of table) expect(exitCodeForStatus(status), String(status)).toBe(code);
  });
  it('gives the unmatched-route 404 a hint about %2F', () => {
    const error = createApiError(404, { error: '404 Not Found' }, ctx);
    expect(error.message).toMatch(/GET \/projects\/1 failed: 404 Not Found.*%2F/);
  });
  it('has one message for each sudo failure', () => {
    const sudo = { ...ctx, sudo: 'alice' };
    expect(createApiError(403, { message: '403 Forbidden - Must be admin to use sudo' }, sudo).message).toMatch(/not an administrator/);
    expect(createApiError(403, { error: 'insufficient_scope', error_description: 'x', scope: 'sudo' }, sudo).message).toMatch(
      /lacks the 'sudo' scope/,
    );
    expect(createApiError(404, { message: "404 User with ID or username 'alice' Not Found" }, sudo).message).toMatch(
      /no user with ID or username 'alice'/,
    );
  });
  it('hints that job tokens work on some endpoints only', () => {
    expect(createApiError(401, { message: '401 Unauthorized' }, { ...ctx, credential: 'job' }).message).toMatch(
      /job tokens are accepted only/,
    );
  });
  it('uses exit code 9 when a CAPTCHA is needed', () => {
    const error = createApiError(409, { needs_captcha_response: true, spam_log_id: 1, message: { error: 'spam' } }, ctx);
    expect(error.exitCode).toBe(ExitCode.captcha);
  });
});

describe('retry policy', () => {
  it('retries 5xx and network errors only for idempotent methods, 429 always', () => {
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE']) {
      expect(isRetryable(method, { kind: 'status', status: 503 })).toBe(true);
      expect(isRetryable(method, { kind: 'network', code: 'ECONNRESET' })).toBe(true);
    }
    for (const method of ['POST', 'PATCH']) {
      expect(isRetryable(method, { kind: 'status', status: 503 })).toBe(false);
      expect(isRetryable(method, { kind: 'network', code: 'ECONNRESET' })).toBe(false);
      expect(isRetryable(method, { kind: 'status', status: 429 })).toBe(true);
      expect(isRetryable(method, { kind: 'network', code: 'ECONNREFUSED' })).toBe(true);
    }
    for (const status of [400, 401, 403, 404, 409, 422]) expect(isRetryable('GET', { kind: 'status', status })).toBe(false);
    for (const code of ['DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'ERR_TLS_CERT_ALTNAME_INVALID', 'ENOTFOUND']) {
      expect(isRetryable('GET', { kind: 'network', code }), code).toBe(false);
    }
  });
  it('honours Retry-After seconds and dates, then RateLimit-Reset (past means now)', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryDelayMs({ attempt: 1, retryAfter: '3', nowMs: now })).toBe(3000);
    expect(retryDelayMs({ attempt: 1, retryAfter: 'Thu, 01 Jan 2026 00:00:05 GMT', nowMs: now })).toBe(5000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(retryDelayMs({ attempt: 1, rateLimitReset: String(now / 1000 + 7), nowMs: now })).toBe(7000);
    expect(retryDelayMs({ attempt: 1, rateLimitReset: String(now / 1000 - 30), nowMs: now })).toBe(0);
    expect(retryDelayMs({ attempt: 1, retryAfter: 'soon', rateLimitReset: 'x', nowMs: now, random: () => 0 })).toBe(125);
  });
  it('backs off exponentially with jitter, capped', () => {
    const at = (attempt: number, r: number) => retryDelayMs({ attempt, nowMs: 0, random: () => r });
    expect([at(1, 0), at(1, 1)]).toEqual([125, 250]);
    expect([at(3, 0), at(3, 1)]).toEqual([500, 1000]);
    expect(at(20, 1)).toBe(8000);
  });
});

describe('redactUrl', () => {
  it('hides token query parameters', () => {
    expect(redactUrl('http://h/api/v4/user?private_token=abc&x=1&access_token=def&job_token=g')).toBe(
      'http://h/api/v4/user?private_token=[redacted]&x=1&access_token=[redacted]&job_token=[redacted]',
    );
  });
});
