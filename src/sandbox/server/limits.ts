// Rack::Attack-style throttling and the injected faults of drills
// (reference §3.1).
import type { Ctx } from './context.js';
import { ApiError } from './errors.js';
import { extractCredential } from './auth.js';

/** One Rack::Attack throttle: at most `limit` requests per `period` seconds per client. */
export interface Throttle {
  enabled: boolean;
  limit: number;
  period: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  /** `throttle_authenticated_api_*` and `throttle_unauthenticated_api_*`, changed through the application settings */
  readonly throttles: { authenticated: Throttle; unauthenticated: Throttle };
  /** `rate_limiting_response_text` */
  responseText = 'Retry later';

  /** `limit` > 0 turns both throttles on at that many requests a minute; else both start off at the service's defaults. */
  constructor(limit: number) {
    const on = limit > 0;
    this.throttles = {
      authenticated: on ? { enabled: true, limit, period: 60 } : { enabled: false, limit: 7200, period: 3600 },
      unauthenticated: on ? { enabled: true, limit, period: 60 } : { enabled: false, limit: 3600, period: 3600 },
    };
  }

  check(ctx: Ctx): void {
    const cred = extractCredential(ctx.req, ctx.rawQuery);
    const throttle = cred ? this.throttles.authenticated : this.throttles.unauthenticated;
    if (!throttle.enabled) return;
    const { limit, period } = throttle;
    const key = cred ? `t:${cred.value}` : `ip:${ctx.req.socket.remoteAddress ?? ''}`;
    const name = cred ? 'throttle_authenticated_api' : 'throttle_unauthenticated_api';
    const nowSec = Math.floor(Date.now() / 1000);
    const start = nowSec - (nowSec % period);
    let w = this.windows.get(key);
    if (!w || w.start !== start) {
      w = { start, count: 0 };
      this.windows.set(key, w);
    }
    w.count++;
    const reset = start + period;
    const headers: Array<[string, string]> = [
      ['RateLimit-Name', name],
      ['RateLimit-Limit', String(Math.ceil((limit * 60) / period))],
      ['RateLimit-Observed', String(w.count)],
      ['RateLimit-Remaining', String(Math.max(limit - w.count, 0))],
      ['RateLimit-Reset', String(reset)],
    ];
    if (w.count > limit) {
      const h: Record<string, string> = Object.fromEntries(headers);
      h['RateLimit-ResetTime'] = new Date(reset * 1000).toUTCString();
      h['Retry-After'] = String(period - (nowSec % period));
      throw new ApiError(429, this.responseText, h, 'text/plain');
    }
    ctx.out.push(...headers);
  }

  /** A new setting starts new windows. */
  reset(): void {
    this.windows.clear();
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
