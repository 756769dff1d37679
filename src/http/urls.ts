import { ExitCode, SvcError, UsageError } from '../errors.js';

/** Where one request goes: the origin, and the path with its query exactly as it will be sent. */
export interface Target {
  origin: string;
  path: string;
}

export function targetHref(target: Target): string {
  return `${target.origin}${target.path}`;
}

const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i;
/** Any URL's userinfo within a text (a message, a header value). */
const ANY_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^/?#@\s<>"']*)@/gi;

/**
 * A URL, or every URL in a text, as svc shows it: a password in its userinfo becomes `****`
 * (`bob:****@host`). A user name without a password is hidden too, as a token is often put there
 * (`https://TOKEN@host`).
 */
export function displayUrl(raw: string): string {
  return raw.replace(ANY_USERINFO, (_whole, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return `${scheme}${colon < 0 ? '****' : `${userinfo.slice(0, colon)}:****`}@`;
  });
}

export function normalizeBaseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new SvcError(`invalid URL '${displayUrl(raw)}': expected something like https://gitlab.example.com`, ExitCode.usage);
  }
  if (url.username || url.password) {
    throw new SvcError('invalid URL: put credentials in a token, not in the URL', ExitCode.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SvcError(`invalid URL '${url.href}': only http and https are supported`, ExitCode.usage);
  }
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/api\/v4$/, '');
  return url;
}

/** Origin plus any path prefix, without a trailing slash (a bare origin's pathname is `/`). */
export function instanceRoot(base: URL): string {
  return `${base.origin}${base.pathname.replace(/\/+$/, '')}`;
}

const CREDENTIAL_PARAMS = new Set(['private_token', 'access_token', 'job_token', 'refresh_token']);

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/** Hides the value of every credential query parameter, however its name is spelled or encoded. */
export function redactUrl(url: string): string {
  return url.replace(/([?&;])([^=&;#]*)=([^&;#]*)/g, (whole, separator: string, name: string) =>
    CREDENTIAL_PARAMS.has(decodedName(name)) ? `${separator}${name}=[redacted]` : whole,
  );
}

/** RFC 3986 remove_dot_segments on the literal `.` and `..` only: `%2E` is data, never a step. */
function removeDotSegments(path: string): string {
  const out: string[] = [];
  const segments = path.split('/');
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === '.' || segment === '..') {
      if (segment === '..' && out.length > 1) out.pop();
      if (last) out.push('');
    } else {
      out.push(segment);
    }
  });
  return out.join('/') || '/';
}

/** Characters that cannot travel in a request line, or that servers refuse there, are percent-encoded as a browser would. */
function encodeUnsafe(text: string): string {
  return text.replace(/[^\x21-\x7e]|["<>`{}]/gu, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return '%EF%BF%BD';
    }
  });
}

const ABSOLUTE = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(\?[^#]*)?/i;

/**
 * Resolves a reference (an absolute URL, `//host/...`, `/path`, `path` or `?query`) against the
 * target it came from, without the WHATWG parser's path normalisation; undefined when it is not
 * a valid http(s) URL. The fragment is dropped: it never reaches the server.
 */
export function resolveReference(reference: string, from: Target): Target | undefined {
  const ref = encodeUnsafe(reference.trim()).replace(/#.*$/, '');
  const scheme = new URL(from.origin).protocol;
  const absolute = ABSOLUTE.exec(ref.startsWith('//') ? `${scheme}${ref}` : ref);
  if (absolute) {
    const protocol = `${absolute[1]?.toLowerCase()}:`;
    if (protocol !== 'http:' && protocol !== 'https:') return undefined;
    let origin: URL;
    try {
      origin = new URL(`${protocol}//${absolute[2]}`);
    } catch {
      return undefined;
    }
    if (origin.username || origin.password || !origin.hostname) return undefined;
    return { origin: origin.origin, path: `${removeDotSegments(absolute[3] || '/')}${absolute[4] ?? ''}` };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(ref)) return undefined;
  const [fromPath = '/'] = splitQuery(from.path);
  if (ref === '') return from;
  if (ref.startsWith('?')) return { origin: from.origin, path: `${fromPath}${ref}` };
  const [refPath = '', refQuery = ''] = splitQuery(ref);
  const merged = refPath.startsWith('/') ? refPath : `${fromPath.slice(0, fromPath.lastIndexOf('/') + 1)}${refPath}`;
  return { origin: from.origin, path: `${removeDotSegments(merged)}${refQuery}` };
}

function splitQuery(path: string): [string, string] {
  const at = path.indexOf('?');
  return at < 0 ? [path, ''] : [path.slice(0, at), path.slice(at)];
}

/** The API root as a target prefix: origin and `/prefix/api/v4`. */
export function apiRootTarget(apiRoot: string): Target {
  const url = new URL(apiRoot);
  return { origin: url.origin, path: url.pathname };
}

export function isUnder(target: Target, root: Target): boolean {
  if (target.origin !== root.origin) return false;
  const [path] = splitQuery(target.path);
  return path === root.path || path.startsWith(`${root.path}/`);
}

/**
 * The target of a caller's request (a path under `/api/v4` or an absolute URL): a usage error when
 * it is no URL at all or when it would leave the API root, before anything is sent.
 */
export function requestTarget(href: string, apiRoot: string): Target {
  const root = apiRootTarget(apiRoot);
  if (USERINFO.test(href)) throw new UsageError('invalid URL: put credentials in a token, not in the URL');
  const target = resolveReference(href, { origin: root.origin, path: `${root.path}/` });
  if (!target) throw new UsageError(`'${redactUrl(href)}' is not a valid URL`);
  if (target.origin === root.origin && !isUnder(target, root)) {
    throw new UsageError(`the path ${redactUrl(splitQuery(target.path)[0])} is outside ${root.path}; refusing to send it`);
  }
  return target;
}

/** A URL the service handed out (a release link): credentials go with it only under the instance's API root. */
export function linkTarget(href: string, apiRoot: string): { target: Target; credentials: boolean } {
  const root = apiRootTarget(apiRoot);
  if (USERINFO.test(href)) throw new UsageError('invalid URL: put credentials in a token, not in the URL');
  const target = resolveReference(href, { origin: root.origin, path: `${root.path}/` });
  if (!target || !/^https?:/.test(target.origin)) throw new UsageError(`'${redactUrl(href)}' is not an http or https URL`);
  return { target, credentials: target.origin === root.origin && isUnder(target, root) };
}

/** The path of a URL as messages show it: relative to the API root, without the query. */
export function displayPath(href: string, apiRoot: string): string {
  const path = href.startsWith(apiRoot) ? href.slice(apiRoot.length) : href;
  return path.split('?')[0] || '/';
}

/** A URL for --debug: credentials hidden, and on other hosts (pre-signed storage links) no query at all. */
export function loggableUrl(target: Target, instanceOrigin: string): string {
  if (target.origin === instanceOrigin) return redactUrl(targetHref(target));
  const [path = '/', query] = target.path.split('?');
  return `${target.origin}${path}${query === undefined ? '' : '?[redacted]'}`;
}
