import { createHash, generateKeyPairSync } from 'node:crypto';

const wire = (...parts: Buffer[]) =>
  Buffer.concat(parts.flatMap((p) => [Buffer.from([0, 0, 0, 0].map((_, i) => (p.length >> (8 * (3 - i))) & 0xff)), p]));
const text = (s: string) => Buffer.from(s);

/** A fresh OpenSSH ed25519 public key line, its blob, and the fingerprints `ssh-keygen -l` prints. */
export function ed25519Key(comment = 'someone@example.com'): { line: string; md5: string; sha256: string } {
  const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  const blob = wire(text('ssh-ed25519'), Buffer.from(jwk.x!, 'base64url'));
  return {
    line: `ssh-ed25519 ${blob.toString('base64')} ${comment}`,
    md5: createHash('md5').update(blob).digest('hex').match(/../g)!.join(':'),
    sha256: `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`,
  };
}

/** An `ssh-dss` line (a type the service forbids by default); the numbers need not make a real key. */
export function dsaKeyLine(): string {
  const blob = wire(text('ssh-dss'), Buffer.alloc(129, 1), Buffer.alloc(21, 2), Buffer.alloc(128, 3), Buffer.alloc(128, 4));
  return `ssh-dss ${blob.toString('base64')} old@example.com`;
}

/** An armored OpenPGP v4 public key (one ed25519 key packet) and its fingerprint, upper-case hex. */
export function gpgPublicKey(seed: string): { armored: string; fingerprint: string } {
  const oid = Buffer.from([0x2b, 0x06, 0x01, 0x04, 0x01, 0xda, 0x47, 0x0f, 0x01]);
  const point = Buffer.concat([Buffer.from([0x40]), createHash('sha256').update(seed).digest()]);
  const body = Buffer.concat([Buffer.from([4, 0x65, 0x00, 0x00, 0x00, 22, oid.length]), oid, Buffer.from([0x01, 0x07]), point]);
  const packet = Buffer.concat([Buffer.from([0x98, body.length]), body]);
  const fingerprint = createHash('sha1')
    .update(Buffer.from([0x99, body.length >> 8, body.length & 0xff]))
    .update(body)
    .digest('hex')
    .toUpperCase();
  const lines = packet.toString('base64').match(/.{1,64}/g)!;
  return {
    armored: ['-----BEGIN PGP PUBLIC KEY BLOCK-----', '', ...lines, '=AAAA', '-----END PGP PUBLIC KEY BLOCK-----', ''].join('\n'),
    fingerprint,
  };
}
