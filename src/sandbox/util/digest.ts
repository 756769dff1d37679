import { createHash } from 'node:crypto';

export function sha1(s: string | Buffer): string {
  return createHash('sha1').update(s).digest('hex');
}

export function sha256(s: string | Buffer): string {
  return createHash('sha256').update(s).digest('hex');
}
