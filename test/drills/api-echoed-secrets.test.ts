import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svc } from '../support/harness.js';
import { startScriptedServer, type Handler } from './scripted-server.js';

let server: Awaited<ReturnType<typeof startScriptedServer>>;

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => {
  await server.close();
});

/** A token whose URL-encoded form differs from it, as base64-like tokens do. */
const TOKEN = 'Secret/Token+42=abcdef';
const FORMS = [TOKEN, TOKEN.toLowerCase(), TOKEN.toUpperCase(), encodeURIComponent(TOKEN), encodeURIComponent(TOKEN).toLowerCase()];

/** The id is past 2^53: re-printing the body must keep it as sent. */
function jsonBody(token: string): string {
  const fields = JSON.stringify({ message: `token ${token} refused`, lower: token.toLowerCase(), encoded: encodeURIComponent(token) });
  return `${fields.slice(0, -1)},"id":9007199254740993}`;
}

/** Answers with the caller's token echoed in every form, in headers and body. */
function echo(status: number, contentType: string): Handler {
  return (req, res) => {
    const sent = String(req.headers['private-token']);
    const body = contentType === 'application/json' ? jsonBody(sent) : `token ${sent.toUpperCase()} and ${encodeURIComponent(sent)}\n`;
    res.sendDate = false;
    res
      .writeHead(status, {
        'content-type': contentType,
        'content-length': String(Buffer.byteLength(body)),
        'x-echo': sent.toUpperCase(),
        link: `<http://h/api/v4/user?private_token=${encodeURIComponent(sent)}>; rel="next"`,
      })
      .end(body);
  };
}

function head(status: string, contentType: string, length: number): string {
  return [
    `HTTP/1.1 ${status}`,
    `content-type: ${contentType}`,
    `content-length: ${length}`,
    'x-echo: [redacted]',
    'link: <http://h/api/v4/user?private_token=[redacted]>; rel="next"',
    'connection: keep-alive',
    'keep-alive: timeout=1',
    '',
    '',
  ].join('\n');
}

describe('svc api never prints the caller token a server echoes (#22 item 9)', () => {
  it('-i on an error: headers and body redacted in every form; one line on stderr, exit 3', async () => {
    const base = server.add('echo-error', echo(401, 'application/json'));
    const result = await svc(['api', '-i', 'user'], { env: { SVC_URL: base, SVC_TOKEN: TOKEN }, secrets: FORMS, process: true });
    const body = jsonBody(TOKEN);
    const redactedBody = '{"message":"token [redacted] refused","lower":"[redacted]","encoded":"[redacted]","id":9007199254740993}\n';
    expect(result).toEqual({
      exitCode: 3,
      stdout: head('401 Unauthorized', 'application/json', Buffer.byteLength(body)) + redactedBody,
      stderr: 'svc: GET /user failed: 401 Unauthorized: token [redacted] refused\n',
    });
  });

  it('-i on a success: JSON re-printed and text bodies redacted, big numbers kept', async () => {
    const json = server.add('echo-json', echo(200, 'application/json'));
    const fromJson = await svc(['api', '-i', 'user', '-o', 'ndjson'], { env: { SVC_URL: json, SVC_TOKEN: TOKEN }, secrets: FORMS });
    expect(fromJson.exitCode).toBe(0);
    expect(fromJson.stdout.split('\n\n')[1]).toBe(
      '{"message":"token [redacted] refused","lower":"[redacted]","encoded":"[redacted]","id":9007199254740993}\n',
    );
    const text = server.add('echo-text', echo(200, 'text/plain'));
    const fromText = await svc(['api', 'user', '-H', `PRIVATE-TOKEN: ${TOKEN}`], { env: { SVC_URL: text }, secrets: FORMS });
    expect(fromText).toEqual({ exitCode: 0, stdout: 'token [redacted] and [redacted]\n', stderr: '' });
  });
});
