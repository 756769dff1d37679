import { describe, expect, it } from 'vitest';
import { formatSize, nestsDeeperThan } from '../../src/http/body.js';
import { redirectDecision } from '../../src/http/redirect-policy.js';
import { planRetry } from '../../src/http/retry-policy.js';
import { hasPemCertificate } from '../../src/http/transport.js';
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, TOKEN_TYPES } from '../../src/http/types.js';
import { requestTarget, resolveReference } from '../../src/http/urls.js';

describe('defaults defined once', () => {
  it('30 s per attempt, 4 retries, three token types', () => {
    expect([DEFAULT_TIMEOUT_MS, DEFAULT_RETRIES]).toEqual([30_000, 4]);
    expect(TOKEN_TYPES).toEqual(['private', 'oauth', 'job']);
  });
});

describe('redirectDecision', () => {
  const base = {
    method: 'GET',
    hops: 0,
    fromOrigin: 'http://a',
    toOrigin: 'http://a',
    instanceOrigin: 'http://a',
    sendingCredentials: true,
  };
  it('follows reads anywhere, with credentials only on the instance and never again once they left it', () => {
    expect(redirectDecision({ ...base, status: 302 })).toEqual({ follow: true, method: 'GET', sendCredentials: true });
    expect(redirectDecision({ ...base, status: 302, toOrigin: 'http://b' })).toEqual({
      follow: true,
      method: 'GET',
      sendCredentials: false,
    });
    expect(redirectDecision({ ...base, status: 301, sendingCredentials: false })).toEqual({
      follow: true,
      method: 'GET',
      sendCredentials: false,
    });
    expect(redirectDecision({ ...base, status: 303, method: 'HEAD' })).toEqual({ follow: true, method: 'GET', sendCredentials: true });
  });
  it('keeps a write a write on the same origin, or refuses; stops after 5 hops', () => {
    for (const status of [301, 307, 308]) {
      expect(redirectDecision({ ...base, status, method: 'POST' })).toEqual({ follow: true, method: 'POST', sendCredentials: true });
    }
    for (const status of [302, 303]) {
      expect(redirectDecision({ ...base, status, method: 'PUT' })).toEqual({ follow: false, reason: 'write-not-followed' });
    }
    expect(redirectDecision({ ...base, status: 307, method: 'DELETE', toOrigin: 'http://b' })).toEqual({
      follow: false,
      reason: 'write-not-followed',
    });
    expect(redirectDecision({ ...base, status: 302, hops: 5 })).toEqual({ follow: false, reason: 'too-many' });
  });
});

describe('planRetry', () => {
  const input = { method: 'GET', attempt: 1, retries: 4, waitedMs: 0, budgetMs: 120_000, nowMs: 0 };
  it('plans network failures and statuses with the same table', () => {
    expect(planRetry({ ...input, cause: { kind: 'network', code: 'ECONNRESET' }, retryAfter: '2' })).toEqual({
      retry: true,
      delayMs: 2000,
    });
    expect(planRetry({ ...input, cause: { kind: 'status', status: 503 }, retryAfter: '2' })).toEqual({ retry: true, delayMs: 2000 });
    expect(planRetry({ ...input, method: 'POST', cause: { kind: 'network', code: 'ECONNRESET' } })).toEqual({ retry: false });
    expect(planRetry({ ...input, cause: { kind: 'status', status: 404 } })).toEqual({ retry: false });
  });
  it('stops after the last retry and before passing the budget', () => {
    expect(planRetry({ ...input, attempt: 5, cause: { kind: 'status', status: 429 } })).toEqual({ retry: false });
    expect(planRetry({ ...input, waitedMs: 119_000, cause: { kind: 'status', status: 429 }, retryAfter: '5' })).toEqual({
      retry: false,
      overBudgetByWaitingMs: 5000,
    });
  });
});

describe('URL references', () => {
  const from = { origin: 'http://h', path: '/api/v4/projects?page=1' };
  it('resolves absolute, scheme-relative, rooted, relative and query-only references without touching %2E', () => {
    expect(resolveReference('http://H:80/api/v4/projects/%2E%2E?page=2#top', from)).toEqual({
      origin: 'http://h',
      path: '/api/v4/projects/%2E%2E?page=2',
    });
    expect(resolveReference('//other:8080/x', from)).toEqual({ origin: 'http://other:8080', path: '/x' });
    expect(resolveReference('/api/v4/a/./b/../c', from)).toEqual({ origin: 'http://h', path: '/api/v4/a/c' });
    expect(resolveReference('users?x=1', from)).toEqual({ origin: 'http://h', path: '/api/v4/users?x=1' });
    expect(resolveReference('?page=3', from)).toEqual({ origin: 'http://h', path: '/api/v4/projects?page=3' });
    expect(resolveReference('/api/v4/a b/é', from)).toEqual({ origin: 'http://h', path: '/api/v4/a%20b/%C3%A9' });
    expect(resolveReference('/api/v4/a"<b>`{c}', from)).toEqual({ origin: 'http://h', path: '/api/v4/a%22%3Cb%3E%60%7Bc%7D' });
  });
  it('gives nothing for what is no http(s) URL', () => {
    for (const ref of ['http://[::1/x', 'ftp://h/x', 'mailto:a@b', 'http://u:p@h/x', 'http:///x']) {
      expect(resolveReference(ref, from), ref).toBeUndefined();
    }
  });
  it('requestTarget keeps requests under the API root of a prefixed instance', () => {
    expect(requestTarget('http://h/gl/api/v4/projects/%2E%2E/share/5', 'http://h/gl/api/v4')).toEqual({
      origin: 'http://h',
      path: '/gl/api/v4/projects/%2E%2E/share/5',
    });
    expect(() => requestTarget('http://h/gl/api/v4/../../x', 'http://h/gl/api/v4')).toThrow(
      'the path /gl/x is outside /gl/api/v4; refusing to send it',
    );
    expect(() => requestTarget('http://h/gl/api/v4x', 'http://h/gl/api/v4')).toThrow(
      'the path /gl/api/v4x is outside /gl/api/v4; refusing to send it',
    );
  });
});

describe('bodies', () => {
  it('measures nesting outside strings only', () => {
    expect(nestsDeeperThan(Buffer.from('[[["[[[[","\\"[[["]]]'), 3)).toBe(false);
    expect(nestsDeeperThan(Buffer.from('[[[[]]]]'), 3)).toBe(true);
    expect(nestsDeeperThan(Buffer.from('{"a":{"b":{"c":{}}}}'), 4)).toBe(false);
  });
  it('formats sizes as people read them', () => {
    expect([formatSize(300), formatSize(1536), formatSize(64 * 1024 * 1024)]).toEqual(['300 bytes', '1.5 KiB', '64 MiB']);
  });
  it('has one PEM check', () => {
    expect(hasPemCertificate('x\n-----BEGIN CERTIFICATE-----\nabc')).toBe(true);
    expect(hasPemCertificate('-----BEGIN PRIVATE KEY-----')).toBe(false);
  });
});
