// Public keys as the service reads them (lib/gitlab/ssh_public_key.rb, app/models/key.rb, gpg_key.rb):
// an OpenSSH line `type base64 [comment]` whose blob names the same type, fingerprinted as MD5 (colon hex)
// and SHA256 (unpadded base64) of the blob; an armored OpenPGP public key block, fingerprinted as a
// version 4 key is (SHA-1 of 0x99, the packet's length and the public key packet).
import { createHash } from 'node:crypto';

export interface SshKey {
  type: string;
  /** the algorithm as the service's restrictions name it: rsa, dsa, ecdsa, ed25519, ecdsa_sk, ed25519_sk */
  technology: string;
  bits: number;
  /** `type base64`, without the comment */
  publishable: string;
  md5: string;
  sha256: string;
}

const TECHNOLOGY: Readonly<Record<string, string>> = {
  'ssh-rsa': 'rsa',
  'ssh-dss': 'dsa',
  'ecdsa-sha2-nistp256': 'ecdsa',
  'ecdsa-sha2-nistp384': 'ecdsa',
  'ecdsa-sha2-nistp521': 'ecdsa',
  'ssh-ed25519': 'ed25519',
  'sk-ecdsa-sha2-nistp256@openssh.com': 'ecdsa_sk',
  'sk-ssh-ed25519@openssh.com': 'ed25519_sk',
};

/** The length-prefixed strings of an SSH wire blob, or null when the blob is not one. */
function wireStrings(blob: Buffer): Buffer[] | null {
  const out: Buffer[] = [];
  let at = 0;
  while (at < blob.length) {
    if (at + 4 > blob.length) return null;
    const length = blob.readUInt32BE(at);
    if (at + 4 + length > blob.length) return null;
    out.push(blob.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return out;
}

function bitsOf(technology: string, type: string, parts: Buffer[]): number {
  if (technology === 'rsa' || technology === 'dsa') {
    const modulus = parts[technology === 'rsa' ? 2 : 1] ?? Buffer.alloc(0);
    const trimmed = modulus[0] === 0 ? modulus.subarray(1) : modulus;
    return trimmed.length === 0 ? 0 : (trimmed.length - 1) * 8 + (32 - Math.clz32(trimmed[0]!));
  }
  if (technology.startsWith('ecdsa')) return Number(/nistp(\d+)/.exec(type)?.[1] ?? 0);
  return 256;
}

/** The key a text holds, or null when the service could not read one (no fingerprint can be made). */
export function parseSshKey(text: string): SshKey | null {
  const [type, data] = text.trim().split(/\s+/);
  if (!type || !data || !TECHNOLOGY[type] || !/^[A-Za-z0-9+/]+={0,2}$/.test(data)) return null;
  const blob = Buffer.from(data, 'base64');
  const parts = wireStrings(blob);
  if (!parts || parts[0]?.toString('latin1') !== type) return null;
  const technology = TECHNOLOGY[type]!;
  return {
    type,
    technology,
    bits: bitsOf(technology, type, parts),
    publishable: `${type} ${data}`,
    md5: createHash('md5')
      .update(blob)
      .digest('hex')
      .replace(/(..)(?!$)/g, '$1:'),
    sha256: `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`,
  };
}

const ARMOR = /^-----BEGIN PGP PUBLIC KEY BLOCK-----\r?\n((?:[^\n]*\r?\n)*?)-----END PGP PUBLIC KEY BLOCK-----\s*$/;

/** The first public key packet's v4 fingerprint and key id (upper-case hex), or null when there is none. */
export function gpgFingerprint(text: string): { fingerprint: string; keyId: string } | null {
  const armored = ARMOR.exec(text.trim());
  if (!armored) return null;
  // Armor headers end at the first blank line; the checksum line starts with `=`.
  const lines = armored[1]!.split(/\r?\n/);
  const blank = lines.findIndex((line) => line.trim() === '');
  const body = lines.slice(lines.some((line) => line.includes(':')) && blank >= 0 ? blank + 1 : 0);
  const data = Buffer.from(body.filter((line) => line && !line.startsWith('=')).join(''), 'base64');
  const packet = firstPacket(data);
  if (!packet || packet.tag !== 6 || packet.body[0] !== 4) return null;
  const header = Buffer.from([0x99, packet.body.length >> 8, packet.body.length & 0xff]);
  const fingerprint = createHash('sha1').update(header).update(packet.body).digest('hex').toUpperCase();
  return { fingerprint, keyId: fingerprint.slice(-16) };
}

function firstPacket(data: Buffer): { tag: number; body: Buffer } | null {
  const first = data[0];
  if (first === undefined || (first & 0x80) === 0) return null;
  if (first & 0x40) {
    const tag = first & 0x3f;
    const one = data[1] ?? 0;
    if (one < 192) return { tag, body: data.subarray(2, 2 + one) };
    if (one < 224) {
      const length = ((one - 192) << 8) + (data[2] ?? 0) + 192;
      return { tag, body: data.subarray(3, 3 + length) };
    }
    if (one === 255) return { tag, body: data.subarray(6, 6 + data.readUInt32BE(2)) };
    return null;
  }
  const tag = (first >> 2) & 0x0f;
  const kind = first & 0x03;
  if (kind === 0) return { tag, body: data.subarray(2, 2 + (data[1] ?? 0)) };
  if (kind === 1) return { tag, body: data.subarray(3, 3 + data.readUInt16BE(1)) };
  if (kind === 2) return { tag, body: data.subarray(5, 5 + data.readUInt32BE(1)) };
  return null;
}
