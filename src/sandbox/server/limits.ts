// Rack::Attack-style throttling and the injected faults of drills
// (reference §3.1).
import type { Ctx } from './context.js';
import { ApiError } from './errors.js';
import { extractCredential } from './auth.js';

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(private readonly limit: number) {}

  check(ctx: Ctx): void {
    const limit = this.limit;
    if (!limit || limit <= 0) return;
    const cred = extractCredential(ctx.req, ctx.rawQuery);
    const key = cred ? `t:${cred.value}` : `ip:${ctx.req.socket.remoteAddress ?? ''}`;
    const name = cred ? 'throttle_authenticated_api' : 'throttle_unauthenticated_api';
    const nowSec = Math.floor(Date.now() / 1000);
    const start = nowSec - (nowSec % 60);
    let w = this.windows.get(key);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(key, w);
    }
    w.count++;
    const reset = start + 60;
    const headers: Array<[string, string]> = [
      ['RateLimit-Name', name],
      ['RateLimit-Limit', String(limit)],
      ['RateLimit-Observed', String(w.count)],
      ['RateLimit-Remaining', String(Math.max(limit - w.count, 0))],
      ['RateLimit-Reset', String(reset)],
    ];
    if (w.count > limit) {
      const h: Record<string, string> = Object.fromEntries(headers);
      h['RateLimit-ResetTime'] = new Date(reset * 1000).toUTCString();
      h['Retry-After'] = String(60 - (nowSec % 60));
      throw new ApiError(429, 'Retry later', h, 'text/plain');
    }
    ctx.out.push(...headers);
  }
}

export function faultError(kind: string, rateLimit: number): ApiError {
  switch (kind) {
    case '429': {
      const now = Math.floor(Date.now() / 1000);
      const limit = rateLimit > 0 ? rateLimit : 600;
      return new ApiError(
        429,
        'Retry later',
        {
          'RateLimit-Name': 'throttle_authenticated_api',
          'RateLimit-Limit': String(limit),
          'RateLimit-Observed': String(limit + 1),
          'RateLimit-Remaining': '0',
          'RateLimit-Reset': String(now + 1),
          'RateLimit-ResetTime': new Date((now + 1) * 1000).toUTCString(),
          'Retry-After': '1',
        },
        'text/plain',
      );
    }
    case '500':
      return new ApiError(500, { message: '500 Internal Server Error' });
    case '502':
      return new ApiError(
        502,
        '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
        {},
        'text/html',
      );
    default:
      return new ApiError(
        503,
        '<html>\r\n<head><title>503 Service Temporarily Unavailable</title></head>\r\n<body>\r\n<center><h1>503 Service Temporarily Unavailable</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n',
        {},
        'text/html',
      );
  }
}
