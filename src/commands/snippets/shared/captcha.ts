import { createInterface } from 'node:readline/promises';
import type { Context } from '../../../context.js';
import type { CaptchaChallenge } from '../../../api/types.js';
import { ApiError } from '../../../http/api-error.js';

export function captchaChallenge(error: unknown): CaptchaChallenge | undefined {
  if (!(error instanceof ApiError) || !error.body || typeof error.body !== 'object') return undefined;
  const body = error.body as Partial<CaptchaChallenge>;
  if (body.needs_captcha_response !== true || typeof body.spam_log_id !== 'number') return undefined;
  return { needs_captcha_response: true, spam_log_id: body.spam_log_id, captcha_site_key: String(body.captcha_site_key ?? '') };
}

/** Asks on the terminal for the CAPTCHA response; empty means the user gives up. */
export async function promptCaptchaResponse(ctx: Context, challenge: CaptchaChallenge): Promise<string> {
  const rl = createInterface({ input: ctx.io.stdin, output: ctx.io.stderr, terminal: true });
  try {
    ctx.io.stderr.write(
      `The service flagged this snippet as spam and asks for a CAPTCHA (reCAPTCHA v2, site key ${challenge.captcha_site_key}).\n`,
    );
    return (await rl.question('Paste the CAPTCHA response to resubmit (empty to give up): ', { signal: ctx.signal })).trim();
  } finally {
    rl.close();
  }
}
