// Seeded randomness: the same seed always gives the same world.

/** Deterministic 32-bit hash of a list of integers (order-sensitive). */
export function hash32(...nums: number[]): number {
  let h = 0x811c9dc5;
  for (const n of nums) {
    h = Math.imul(h ^ (n | 0), 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** mulberry32 sequence generator: returns floats in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Deterministic pseudo-random bytes. */
export function seededBytes(seed: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  const r = rng(seed);
  for (let i = 0; i + 4 <= length; i += 4) buf.writeUInt32LE(Math.floor(r() * 4294967296), i);
  for (let i = length - (length % 4); i < length; i++) buf[i] = Math.floor(r() * 256);
  return buf;
}
