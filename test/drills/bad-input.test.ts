import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs, registerSecrets, svc, tempDir } from '../support/harness.js';
import { json, projects, PROXY_502, startScriptedServer, text, type Handler } from './scripted-server.js';

// Bad input of every kind: one line on stderr, the documented exit code, no data on stdout,
// no stack trace and no token anywhere (the harness checks the last two on every run).
const TOKEN = 'drill-token-5f2c9e7a1b3d8c4e';
registerSecrets(TOKEN);

const USAGE = 2;
const FAILURE = 1;

interface Case {
  name: string;
  args: string[];
  exit: number;
  /** What the one stderr line must say. */
  line: RegExp;
  /** Answers the case's requests; without one, the case must fail before sending anything. */
  serve?: Handler;
  /** Environment beyond PATH/HOME/SVC_CONFIG_DIR; the default points at the case's server with TOKEN. */
  env?: (url: string, dir: string) => Record<string, string>;
  /** Prepares files in the case's own directory (its config dir is `dir/config`). */
  setup?: (dir: string) => void;
  /** Checks what the failure left in the case's directory. */
  after?: (dir: string) => void;
}

/** Arguments naming a file in the case's own directory. */
const FILES: Record<string, string> = { CA: 'not-a-cert.pem', OUT: 'build.zip', EXISTING: 'exists.zip', DIR: '.' };

/** A failed download leaves nothing behind: no archive under its name, no partial file. */
function noDownloadLeft(dir: string): void {
  expect(existsSync(join(dir, FILES.OUT as string))).toBe(false);
  expect(readdirSync(dir).filter((name) => name !== 'config')).toEqual([]);
}

const list = (...extra: string[]) => ['projects', 'list', ...extra];
const noFallback = ['--retries', '0'];

const flagCases: Case[] = [
  { name: '--limit 0', args: list('--limit', '0'), exit: USAGE, line: /--limit must be/ },
  { name: '--limit not a number', args: list('--limit', 'ten'), exit: USAGE, line: /--limit must be a whole number/ },
  { name: '--per-page above 100', args: list('--per-page', '101'), exit: USAGE, line: /--per-page must be between 1 and 100/ },
  { name: '--per-page 0', args: list('--per-page', '0'), exit: USAGE, line: /--per-page/ },
  { name: '--visibility outside the choices', args: list('--visibility', 'secret'), exit: USAGE, line: /secret/ },
  { name: '--sort outside the choices', args: list('--sort', 'up'), exit: USAGE, line: /up/ },
  { name: 'unknown option', args: list('--bogus'), exit: USAGE, line: /unknown option '--bogus'/ },
  { name: 'unknown output format', args: ['-o', 'xml', ...list()], exit: USAGE, line: /xml/ },
  { name: '--timeout not a number', args: ['--timeout', 'soon', ...list()], exit: USAGE, line: /--timeout must be a number of seconds/ },
  { name: '--retries above 20', args: ['--retries', '99', ...list()], exit: USAGE, line: /--retries must be between 0 and 20/ },
  { name: '--token-type outside the choices', args: ['--token-type', 'magic', ...list()], exit: USAGE, line: /magic/ },
  { name: 'unknown command', args: ['frobnicate'], exit: USAGE, line: /^svc: error: unknown command 'frobnicate'$/ },
  {
    name: 'misspelt command',
    args: ['-o', 'json', 'projcts'],
    exit: USAGE,
    line: /^svc: error: unknown command 'projcts' \(Did you mean projects\?\)$/,
  },
  { name: 'misspelt verb', args: ['projects', 'lst'], exit: USAGE, line: /^svc: error: unknown command 'lst' \(Did you mean list\?\)$/ },
  { name: 'help for an unknown command', args: ['help', 'GET'], exit: USAGE, line: /^svc: error: unknown command 'GET'$/ },
  { name: 'unknown subcommand', args: ['projects', 'frobnicate'], exit: USAGE, line: /frobnicate/ },
  { name: 'missing argument', args: ['projects', 'get'], exit: USAGE, line: /missing required argument/ },
  { name: 'option value missing', args: list('--limit'), exit: USAGE, line: /--limit/ },
  {
    name: '--limit with --all',
    args: list('--limit', '5', '--all'),
    exit: USAGE,
    line: /option '--all' cannot be used with option '--limit <n>'/,
  },
  {
    name: '--all with --limit on another list',
    args: ['branches', 'commits', '1', 'main', '--all', '--limit=5'],
    exit: USAGE,
    line: /'--all' cannot be used with option '--limit <n>'/,
  },
  {
    name: '--interval without --wait',
    args: ['pipeline', 'create', '1', '--ref', 'main', '--interval', '1'],
    exit: USAGE,
    line: /--interval only applies with --wait/,
  },
  // Past 2^31 ms a Node timer fires at once: bounded so no wait polls every millisecond (#10 case 9).
  {
    name: '--interval beyond an hour',
    args: ['pipeline', 'wait', '1', '2', '--interval', '3000000'],
    exit: USAGE,
    line: /--interval must be at most 3,600 seconds/,
  },
  {
    name: '--wait-timeout beyond a week',
    args: ['pipeline', 'wait', '1', '2', '--wait-timeout', '99999999'],
    exit: USAGE,
    line: /--wait-timeout must be at most 604,800 seconds/,
  },
  {
    name: '--timeout beyond a week',
    args: ['--timeout', '3000000', ...list()],
    exit: USAGE,
    line: /--timeout must be at most 604,800 seconds/,
  },
  {
    name: '--wait-timeout without --wait',
    args: ['projects', 'import', '--file', 'OUT', '--path', 'p', '--wait-timeout', '60'],
    exit: USAGE,
    line: /--wait-timeout only applies with --wait/,
  },
];

const idCases: Case[] = [
  { name: 'negative project id', args: ['projects', 'get', '--', '-5'], exit: USAGE, line: /invalid project id '-5'/ },
  { name: 'fractional project id', args: ['projects', 'get', '1.5'], exit: USAGE, line: /invalid project id '1.5'/ },
  { name: 'path with a leading slash', args: ['projects', 'get', '/group/project'], exit: USAGE, line: /invalid project path/ },
  { name: 'path with a trailing slash', args: ['projects', 'get', 'group/'], exit: USAGE, line: /invalid project path/ },
  { name: 'path with an empty segment', args: ['projects', 'get', 'group//project'], exit: USAGE, line: /invalid project path/ },
  { name: 'blank project', args: ['projects', 'get', '  '], exit: USAGE, line: /project must be a numeric id or a namespaced path/ },
];

const emptyValueCases: Case[] = [
  { name: 'project id 0', args: ['projects', 'get', '0'], exit: USAGE, line: /invalid project id '0'/ },
  { name: 'empty file path', args: ['files', 'get', '1', '', '--ref', 'main'], exit: USAGE, line: /file path must not be empty/ },
  {
    name: 'file path of slashes only',
    args: ['files', 'get', '1', '//', '--ref', 'main'],
    exit: USAGE,
    line: /file path must not be empty/,
  },
  { name: 'empty --ref for a file', args: ['files', 'get', '1', 'README.md', '--ref', ''], exit: USAGE, line: /--ref must not be empty/ },
  { name: 'empty tag', args: ['tags', 'get', '1', ''], exit: USAGE, line: /tag must not be empty/ },
  { name: 'blank branch', args: ['branches', 'commits', '1', ' '], exit: USAGE, line: /branch must not be empty/ },
  { name: 'empty --ref for a pipeline', args: ['pipeline', 'create', '1', '--ref='], exit: USAGE, line: /--ref must not be empty/ },
  {
    name: 'empty --namespace for a new project',
    args: ['projects', 'create', '--name', 'x', '--namespace', ''],
    exit: USAGE,
    line: /--namespace must not be empty/,
  },
  { name: 'empty --name for a new project', args: ['projects', 'create', '--name', ''], exit: USAGE, line: /--name must not be empty/ },
  {
    name: 'empty --path for an import',
    args: ['projects', 'import', '--file', 'OUT', '--path', ''],
    exit: USAGE,
    line: /--path must not be empty/,
  },
];

const apiCases: Case[] = [
  { name: 'api: method with a space', args: ['api', 'projects', '-X', 'GE T'], exit: USAGE, line: /not an HTTP method/ },
  {
    name: 'api: --paginate with POST',
    args: ['api', 'projects', '--paginate', '-X', 'POST'],
    exit: USAGE,
    line: /--paginate works with GET requests only/,
  },
  { name: 'api: --paginate with --include', args: ['api', 'projects', '--paginate', '-i'], exit: USAGE, line: /cannot be combined/ },
  { name: 'api: field without =', args: ['api', 'projects', '-f', 'novalue'], exit: USAGE, line: /expected key=value/ },
  { name: 'api: field without a name', args: ['api', 'projects', '-f', '=x'], exit: USAGE, line: /expected key=value/ },
  { name: 'api: malformed nested name', args: ['api', 'projects', '-f', 'a[b=1'], exit: USAGE, line: /invalid parameter name/ },
  {
    name: 'api: an unknown -X method',
    args: ['api', 'projects', '-X', 'BOGUS'],
    exit: USAGE,
    line: /-X 'BOGUS': not an HTTP method \(expected one of GET, HEAD/,
  },
  { name: 'api: -o table without --fields', args: ['api', 'projects', '-o', 'table'], exit: USAGE, line: /needs --fields/ },
  { name: 'api: header without a colon', args: ['api', 'projects', '-H', 'NoColon'], exit: USAGE, line: /expected 'Name: value'/ },
];

const fileCases: Case[] = [
  {
    name: 'api: -F @ missing file',
    args: ['api', 'projects', '-F', 'body=@/nonexistent/file'],
    exit: USAGE,
    line: /^svc: -F \/nonexistent\/file: no such file$/,
  },
  {
    name: 'api: --input missing file',
    args: ['api', 'projects', '--input', '/nonexistent/body.json'],
    exit: USAGE,
    line: /^svc: --input \/nonexistent\/body.json: no such file$/,
  },
  {
    name: 'api: --input is a directory',
    args: ['api', 'projects', '--input', '/tmp'],
    exit: USAGE,
    line: /^svc: --input \/tmp: is a directory, not a file$/,
  },
  {
    name: 'api: -F @/dev/zero is capped',
    args: ['api', 'projects', '-F', 'body=@/dev/zero'],
    exit: USAGE,
    line: /^svc: -F \/dev\/zero: larger than the 64 MiB svc reads from a file$/,
  },
  { name: '--ca-file missing', args: ['--ca-file', '/nonexistent/ca.pem', ...list()], exit: USAGE, line: /cannot read CA file/ },
  {
    name: '--ca-file without a certificate',
    args: ['--ca-file', 'CA', ...list()],
    exit: USAGE,
    line: /holds no PEM certificate/,
    setup: (dir) => writeFileSync(join(dir, 'not-a-cert.pem'), 'hello\n'),
  },
];

const configCases: Case[] = [
  {
    name: 'config file is not JSON, when the token is to come from it',
    args: list(),
    exit: USAGE,
    line: /cannot read the config file/,
    env: (url) => ({ SVC_URL: url }),
    setup: (dir) => {
      mkdirSync(join(dir, 'config'), { recursive: true });
      writeFileSync(join(dir, 'config', 'config.json'), '{"profiles": {"default": {"url": ');
    },
  },
  { name: '--profile that does not exist', args: ['--profile', 'nosuch', ...list()], exit: USAGE, line: /no profile named 'nosuch'/ },
  {
    name: 'SVC_PROFILE that does not exist',
    args: list(),
    exit: USAGE,
    line: /no profile named 'ghost'/,
    env: (url) => ({ SVC_URL: url, SVC_TOKEN: TOKEN, SVC_PROFILE: 'ghost' }),
  },
  { name: 'config set of an unknown key', args: ['config', 'set', 'colour', 'red'], exit: USAGE, line: /colour/ },
  { name: 'config get of an unknown key', args: ['config', 'get', 'colour'], exit: USAGE, line: /colour/ },
];

const envCases: Case[] = [
  { name: 'no URL at all', args: list(), exit: USAGE, line: /no service URL/, env: () => ({ SVC_TOKEN: TOKEN }) },
  {
    name: 'SVC_URL not a URL',
    args: list(),
    exit: USAGE,
    line: /invalid URL 'not a url'/,
    env: () => ({ SVC_URL: 'not a url', SVC_TOKEN: TOKEN }),
  },
  {
    name: 'SVC_URL with another scheme',
    args: list(),
    exit: USAGE,
    line: /only http and https/,
    env: () => ({ SVC_URL: 'ftp://127.0.0.1/', SVC_TOKEN: TOKEN }),
  },
  {
    name: 'SVC_URL with credentials in it',
    args: list(),
    exit: USAGE,
    line: /put credentials in a token/,
    env: () => ({ SVC_URL: `http://root:${TOKEN}@127.0.0.1:9/`, SVC_TOKEN: TOKEN }),
  },
  {
    name: 'SVC_TOKEN_TYPE outside the choices',
    args: list(),
    exit: USAGE,
    line: /SVC_TOKEN_TYPE: token type must be one of/,
    env: (url) => ({ SVC_URL: url, SVC_TOKEN: TOKEN, SVC_TOKEN_TYPE: 'magic' }),
  },
  {
    name: 'SVC_URL on a closed port',
    args: [...noFallback, ...list()],
    exit: FAILURE,
    line: /connection refused/,
    env: () => ({ SVC_URL: 'http://127.0.0.1:9', SVC_TOKEN: TOKEN }),
  },
];

// Server answers, through projects list/get and svc api.
const serverCases: Case[] = [
  {
    name: 'HTML 502 from a proxy',
    args: [...noFallback, ...list()],
    exit: FAILURE,
    line: /502 Bad Gateway/,
    serve: text(502, 'text/html', PROXY_502),
  },
  {
    name: 'HTML login page with 200',
    args: list(),
    exit: FAILURE,
    line: /text\/html instead of JSON \(an HTML page, probably from a proxy\)/,
    serve: text(200, 'text/html; charset=utf-8', '<!DOCTYPE html><html><head><title>Sign in</title></head><body>login</body></html>'),
  },
  {
    name: 'truncated JSON',
    args: list(),
    exit: FAILURE,
    line: /a truncated or malformed JSON body/,
    serve: text(200, 'application/json', '[{"id":1,"path_with_namespace":"a/b"},{"id":2,"pa'),
  },
  {
    name: 'wrong content type',
    args: list(),
    exit: FAILURE,
    line: /text\/plain instead of JSON/,
    serve: text(200, 'text/plain', 'hello world'),
  },
  { name: 'no content type and not JSON', args: list(), exit: FAILURE, line: /instead of JSON/, serve: text(200, undefined, 'OK') },
  {
    name: '200 with an object for a list',
    args: list(),
    exit: FAILURE,
    line: /where a list was expected/,
    serve: json(200, { message: 'ok' }),
  },
  { name: '200 with null for a list', args: list(), exit: FAILURE, line: /where a list was expected/, serve: json(200, null) },
  { name: '200 with a string for a list', args: list(), exit: FAILURE, line: /where a list was expected/, serve: json(200, 'projects') },
  {
    name: 'empty 200 body for one record',
    args: ['projects', 'get', '1'],
    exit: FAILURE,
    line: /returned an empty body where a single record was expected/,
    serve: text(200, 'application/json', ''),
  },
  {
    name: '200 with a list for one record',
    args: ['projects', 'get', '1', '-o', 'json'],
    exit: FAILURE,
    line: /returned a JSON array where a single record was expected/,
    serve: json(200, [{ id: 1 }]),
  },
  { name: 'empty --fields', args: list('--fields', ''), exit: USAGE, line: /--fields.*expected field names/ },
  { name: 'empty name inside --fields', args: list('--fields', 'id,namespace..path'), exit: USAGE, line: /--fields.*expected field names/ },
  {
    name: 'empty 200 body for a list',
    args: list(),
    exit: FAILURE,
    line: /where a list was expected/,
    serve: text(200, 'application/json', ''),
  },
  {
    name: '500 with a JSON message',
    args: [...noFallback, ...list()],
    exit: FAILURE,
    line: /500 Internal Server Error/,
    serve: json(500, { message: '500 Internal Server Error' }),
  },
  {
    name: '503 HTML with retries used up',
    args: ['--retries', '1', ...list()],
    exit: FAILURE,
    line: /503/,
    serve: text(503, 'text/html', '<html><head><title>503 Service Temporarily Unavailable</title></head></html>', { 'retry-after': '0' }),
  },
  {
    name: '429 after retries',
    args: ['--retries', '1', ...list()],
    exit: 7,
    line: /429/,
    serve: text(429, 'text/plain', 'Retry later', { 'retry-after': '0' }),
  },
  { name: '429 without any rate-limit header', args: noFallback.concat(list()), exit: 7, line: /429/, serve: text(429, undefined, '') },
  { name: '401 without a body', args: list(), exit: 3, line: /401/, serve: text(401, undefined, '') },
  { name: '401 invalid token', args: list(), exit: 3, line: /401 Unauthorized/, serve: json(401, { message: '401 Unauthorized' }) },
  {
    name: '401 whose body repeats the token',
    args: list(),
    exit: 3,
    line: /\[redacted\]/,
    serve: json(401, { message: `token ${TOKEN} is not valid` }),
  },
  { name: '403 forbidden', args: list(), exit: 4, line: /403 Forbidden/, serve: json(403, { message: '403 Forbidden' }) },
  {
    name: '404 project',
    args: ['projects', 'get', 'group/missing'],
    exit: 5,
    line: /404 Project Not Found/,
    serve: json(404, { message: '404 Project Not Found' }),
  },
  {
    name: '404 HTML page',
    args: ['projects', 'get', '7'],
    exit: 5,
    line: /404/,
    serve: text(404, 'text/html', '<html><head><title>Not Found</title></head></html>'),
  },
  {
    name: '409 on a POST',
    args: ['api', 'projects', '-f', 'name=x'],
    exit: 6,
    line: /409 Conflict: has already been taken/,
    serve: json(409, { message: 'has already been taken' }),
  },
  {
    name: '422 validation errors',
    args: ['api', 'projects', '-f', 'name=x'],
    exit: 6,
    line: /name: has already been taken; path: is too long/,
    serve: json(422, { message: { name: ['has already been taken'], path: ['is too long'] } }),
  },
  {
    name: '400 plain text',
    args: ['api', 'projects', '-f', 'name=x'],
    exit: 6,
    line: /400 Bad Request: bad things/,
    serve: text(400, 'text/plain', 'bad things\nsecond line'),
  },
  {
    name: '500 with a long HTML page',
    args: [...noFallback, ...list()],
    exit: FAILURE,
    line: /500/,
    serve: text(500, 'text/html', `<html><head><title>Oops</title></head><body>${'x'.repeat(50_000)}\n${'y\n'.repeat(100)}</body></html>`),
  },
  {
    name: 'redirect loop',
    args: list(),
    exit: FAILURE,
    line: /more than 5 redirects/,
    serve: (req, res) => res.writeHead(302, { location: req.url ?? '/' }).end(),
  },
  {
    name: 'POST answered by 301',
    args: ['api', 'projects', '-f', 'name=x'],
    exit: FAILURE,
    line: /was redirected \(301\).*not followed/,
    serve: (_req, res, { other }) => res.writeHead(301, { location: `${other}/api/v4/projects` }).end(),
  },
  {
    name: 'redirect to another scheme',
    args: [...noFallback, ...list()],
    exit: FAILURE,
    line: /failed/,
    serve: (_req, res) => res.writeHead(302, { location: 'ftp://127.0.0.1/projects' }).end(),
  },
  {
    name: 'Link header pointing at another host',
    args: list('--all'),
    exit: FAILURE,
    line: /points to another host/,
    serve: (_req, res, { other }) =>
      res
        .writeHead(200, { 'content-type': 'application/json', link: `<${other}/api/v4/projects?id_after=100>; rel="next"` })
        .end(JSON.stringify(projects(1, 100))),
  },
  {
    name: 'Link header repeating the same page',
    args: list('--all', '-o', 'json'),
    exit: FAILURE,
    line: /repeats a page already read/,
    serve: (_req, res, { base }) =>
      res
        .writeHead(200, { 'content-type': 'application/json', link: `<${base}/api/v4/projects?page=2&per_page=100>; rel="next"` })
        // Newest first, as the keyset listing asks (sort=desc): the repeated link is the only fault.
        .end(JSON.stringify(projects(1, 100).reverse())),
  },
  {
    name: 'second page fails with -o json',
    args: [...noFallback, ...list('--all', '-o', 'json')],
    exit: FAILURE,
    line: /500/,
    serve: (req, res, { base }) => {
      if ((req.url ?? '').includes('id_after')) return json(500, { message: '500 Internal Server Error' })(req, res, { base, other: base });
      res
        .writeHead(200, { 'content-type': 'application/json', link: `<${base}/api/v4/projects?id_after=100&per_page=100>; rel="next"` })
        .end(JSON.stringify(projects(1, 100).reverse()));
    },
  },
  {
    name: 'connection dropped before an answer',
    args: [...noFallback, ...list()],
    exit: FAILURE,
    line: /closed the connection|connection reset/,
    serve: (req) => req.socket.destroy(),
  },
  {
    name: 'body cut short',
    args: [...noFallback, ...list()],
    exit: FAILURE,
    line: /failed|ended early|closed/,
    serve: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      res.write('[{"id":1}');
      setTimeout(() => res.socket?.destroy(), 20);
    },
  },
  {
    name: 'no answer within --timeout',
    args: ['--timeout', '0.3', ...noFallback, ...list()],
    exit: FAILURE,
    line: /no answer within the timeout/,
    serve: (_req, res) => setTimeout(() => res.writeHead(200).end('[]'), 2000),
  },
  {
    name: 'api: 404 no such endpoint',
    args: ['api', 'nope'],
    exit: 5,
    line: /404 Not Found/,
    serve: json(404, { error: '404 Not Found' }),
  },
  {
    name: 'api: 405 method not allowed',
    args: ['api', 'projects/1', '-X', 'PATCH'],
    exit: 6,
    line: /405/,
    serve: json(405, { error: '405 Not Allowed' }),
  },
  {
    name: 'api: 413 too large',
    args: ['api', 'projects', '-f', 'name=x'],
    exit: 6,
    line: /413/,
    serve: json(413, { message: '413 Request Entity Too Large' }),
  },
  {
    name: 'CAPTCHA needed',
    args: ['api', 'snippets', '-f', 'title=x'],
    exit: 9,
    line: /captcha|spam/i,
    serve: json(409, {
      message: 'Your snippet has been recognized as spam.',
      needs_captcha_response: true,
      spam_log_id: 1,
      captcha_site_key: 'k',
    }),
  },
];

// Commands with local state: storage moves (admin) and downloads.
const storageMoveCases: Case[] = [
  {
    name: 'storage-move: --from equals --to',
    args: ['storage-move', 'schedule', '--from', 'default', '--to', 'default'],
    exit: USAGE,
    line: /nothing would move/,
  },
  {
    name: 'storage-move: --to missing',
    args: ['storage-move', 'schedule', '--from', 'default'],
    exit: USAGE,
    line: /required option '--to <storage>'/,
  },
  {
    name: 'storage-move: unknown --kind',
    args: ['storage-move', 'schedule', '--from', 'a', '--to', 'b', '--kind', 'widgets'],
    exit: USAGE,
    line: /expected projects, snippets, groups or all$/,
  },
  {
    name: 'storage-move: --interval too short',
    args: ['storage-move', 'schedule', '--from', 'a', '--to', 'b', '--interval', '0.01'],
    exit: USAGE,
    line: /--interval must be at least/,
  },
  {
    name: 'storage-move: --max-in-flight 0',
    args: ['storage-move', 'schedule', '--from', 'a', '--to', 'b', '--max-in-flight', '0'],
    exit: USAGE,
    line: /--max-in-flight must be at least 1/,
  },
  { name: 'storage-move: move id not a number', args: ['storage-move', 'get', 'abc'], exit: USAGE, line: /invalid move id 'abc'/ },
  {
    name: 'storage-move: weight not a number',
    args: ['storage-move', 'weights', '--set', 'default=abc'],
    exit: USAGE,
    line: /expected STORAGE=WEIGHT/,
  },
  {
    name: 'storage-move: weight without a storage',
    args: ['storage-move', 'weights', '--set', '=5'],
    exit: USAGE,
    line: /expected STORAGE=WEIGHT/,
  },
  {
    name: 'storage-move: token of a non-administrator',
    args: ['storage-move', 'schedule', '--from', 'default', '--to', 'storage2'],
    exit: 4,
    line: /admin/i,
    serve: json(403, { message: '403 Forbidden' }),
  },
];

const downloadCases: Case[] = [
  { name: 'jobs artifacts: job id not a number', args: ['jobs', 'artifacts', '1', 'abc'], exit: USAGE, line: /invalid job id 'abc'/ },
  {
    name: 'jobs artifacts: --out exists',
    args: ['jobs', 'artifacts', '1', '7', '--out', 'EXISTING'],
    exit: USAGE,
    line: /already exists; pass --force/,
    setup: (dir) => writeFileSync(join(dir, 'exists.zip'), 'keep me'),
    after: (dir) => expect(readFileSync(join(dir, 'exists.zip'), 'utf8')).toBe('keep me'),
  },
  {
    name: 'jobs artifacts: --out is a directory',
    args: ['jobs', 'artifacts', '1', '7', '--out', 'DIR'],
    exit: USAGE,
    line: /is a directory/,
  },
  {
    name: 'jobs artifacts: 404',
    args: ['jobs', 'artifacts', '1', '7', '--out', 'OUT'],
    exit: 5,
    line: /404/,
    serve: json(404, { message: '404 Not Found' }),
    after: noDownloadLeft,
  },
  {
    name: 'jobs artifacts: archive cut short',
    args: [...noFallback, 'jobs', 'artifacts', '1', '7', '--out', 'OUT'],
    exit: FAILURE,
    line: /download|ended|closed/,
    serve: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': '100000' });
      res.write(Buffer.alloc(1000, 0x50));
      setTimeout(() => res.socket?.destroy(), 20);
    },
    after: noDownloadLeft,
  },
];

const cases: Case[] = [
  ...flagCases,
  ...idCases,
  ...emptyValueCases,
  ...apiCases,
  ...fileCases,
  ...configCases,
  ...envCases,
  ...serverCases,
  ...storageMoveCases,
  ...downloadCases,
];

let server: Awaited<ReturnType<typeof startScriptedServer>>;
const untouched: Handler = json(200, []);

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
  cleanupTempDirs();
});

describe('bad input: one line, the documented exit code, nothing half-done', () => {
  it('has at least 60 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(60);
    expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
  });

  it.concurrent.each(cases.map((c, i) => [c.name, c, i] as const))('%s', async (_name, c, index) => {
    const id = `case${index}`;
    const url = server.add(id, c.serve ?? untouched);
    const dir = tempDir('svc-drill-');
    c.setup?.(dir);
    const args = c.args.map((a) => (a in FILES ? join(dir, FILES[a] as string) : a));
    const env = c.env ? c.env(url, dir) : { SVC_URL: url, SVC_TOKEN: TOKEN };
    const result = await svc(args, { env, configDir: join(dir, 'config'), secrets: [TOKEN] });

    const lines = result.stderr.split('\n').filter((l) => l.trim() !== '');
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/^svc: /);
    expect(lines[0]).toMatch(c.line);
    expect(result.exitCode, result.stderr).toBe(c.exit);
    expect(result.stdout).toBe('');
    if (!c.serve) expect(server.hits(id), 'a request was sent for input that is wrong before any request').toBe(0);
    c.after?.(dir);
  });
});
