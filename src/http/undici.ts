// undici's package entry loads every part of the library (fetch, WebSocket, caches, mocks): half its
// code, and about 25 ms of every run's start-up. svc needs one dispatcher, and the request API the
// entry attaches to every dispatcher (a proxy tunnel opens with its `connect`), so it loads those
// modules alone and attaches the API as the entry does.
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';

Object.assign(Dispatcher.prototype, api);

export { EnvHttpProxyAgent };
