import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credentials, CredentialStore, StoredCredentials } from '../../src/http/client.js';
import { startScriptedServer } from '../drills/scripted-server.js';
import { client } from './support.js';

// An expired OAuth access token is refreshed once, through the shared credential store when one
// is given (so that another process's refresh is picked up), else reported to the caller.
const OLD = { token: 'oauth-old-access-1a2b', refreshToken: 'oauth-old-refresh-3c4d' };
const NEW = { token: 'oauth-new-access-5e6f', refreshToken: 'oauth-new-refresh-7a8b' };

let server: Awaited<ReturnType<typeof startScriptedServer>>;
const grants: Array<Record<string, string>> = [];

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(() => server.close());

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => resolve(text));
  });
}

/** A service where only NEW.token is valid and the token endpoint trades OLD.refreshToken for NEW. */
function oauthCase(name: string): string {
  return server.add(name, (req, res) => {
    if (req.url?.endsWith('/oauth/token')) {
      void body(req).then((text) => {
        const grant = JSON.parse(text) as Record<string, string>;
        grants.push(grant);
        const ok = grant.refresh_token === OLD.refreshToken;
        res.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' });
        res.end(JSON.stringify(ok ? { access_token: NEW.token, refresh_token: NEW.refreshToken } : { error: 'invalid_grant' }));
      });
      return;
    }
    const valid = req.headers.authorization === `Bearer ${NEW.token}`;
    res.writeHead(valid ? 200 : 401, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        valid
          ? { id: 1 }
          : { error: 'invalid_token', error_description: 'Token is expired. You can either do re-authorization or token refresh.' },
      ),
    );
  });
}

/** In-memory store that runs one change at a time, as the file-locked store does across processes. */
function memoryStore(initial: StoredCredentials | undefined): CredentialStore & { value: StoredCredentials | undefined; changes: number } {
  let queue = Promise.resolve();
  const store = {
    value: initial,
    changes: 0,
    update(change: (current: StoredCredentials | undefined) => Promise<StoredCredentials | undefined>) {
      const run = queue.then(async () => {
        store.changes++;
        store.value = await change(store.value);
        return store.value;
      });
      queue = run.then(
        () => undefined,
        () => undefined,
      );
      return run;
    },
  };
  return store;
}

const oauth = (pair: StoredCredentials): Credentials => ({ ...pair, type: 'oauth' });

describe('OAuth refresh', () => {
  it('without a store: refreshes at the server once and reports the new pair', async () => {
    const base = oauthCase('no-store');
    grants.length = 0;
    const reported: Credentials[] = [];
    const http = client(base, { credentials: oauth(OLD), onCredentialsRefreshed: (c) => void reported.push(c) });
    expect((await http.request({ path: '/user' })).data).toEqual({ id: 1 });
    expect(grants).toEqual([{ grant_type: 'refresh_token', refresh_token: OLD.refreshToken }]);
    expect(reported).toEqual([{ ...NEW, type: 'oauth' }]);
    expect(server.hits('no-store')).toBe(3);
  });

  it('with a store another process already refreshed: takes the stored pair, no refresh at the server', async () => {
    const base = oauthCase('store-fresh');
    grants.length = 0;
    const store = memoryStore(NEW);
    const reported: Credentials[] = [];
    const http = client(base, { credentials: oauth(OLD), credentialStore: store, onCredentialsRefreshed: (c) => void reported.push(c) });
    expect((await http.request({ path: '/user' })).data).toEqual({ id: 1 });
    expect(grants).toEqual([]);
    expect(store.value).toEqual(NEW);
    expect(reported).toEqual([]);
    expect(server.hits('store-fresh')).toBe(2);
  });

  it('with a store still holding the expired pair: refreshes with the stored refresh token and stores the result', async () => {
    const base = oauthCase('store-stale');
    grants.length = 0;
    const store = memoryStore(OLD);
    const http = client(base, { credentials: oauth({ token: OLD.token }), credentialStore: store });
    expect((await http.request({ path: '/user' })).data).toEqual({ id: 1 });
    expect(grants).toEqual([{ grant_type: 'refresh_token', refresh_token: OLD.refreshToken }]);
    expect(store.value).toEqual(NEW);
  });

  it('two clients sharing a store refresh at the server once between them', async () => {
    const base = oauthCase('store-shared');
    grants.length = 0;
    const store = memoryStore(OLD);
    const clients = [1, 2].map(() => client(base, { credentials: oauth(OLD), credentialStore: store }));
    const answers = await Promise.all(clients.map((http) => http.request({ path: '/user' })));
    expect(answers.map((a) => a.data)).toEqual([{ id: 1 }, { id: 1 }]);
    expect(grants).toHaveLength(1);
    expect(store.changes).toBe(2);
    expect(store.value).toEqual(NEW);
  });
});
