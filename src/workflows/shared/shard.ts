// Sharding splits one job's items between N runs (a GitLab CI job with `parallel: N`): each item
// belongs to exactly one shard, decided by its identity alone, so every run agrees without talking
// to the others, whatever order it reads the items in.
import { UsageError } from '../../errors.js';

/** Shard `index` (1-based) of `total`. */
export interface Shard {
  index: number;
  total: number;
}

/** What `--shard` was given: `K/N`, or `ci` (CI_NODE_INDEX/CI_NODE_TOTAL, read when the command runs). */
export type ShardSpec = Shard | 'ci';

export const MAX_SHARDS = 1000;

export function parseShardSpec(value: string): ShardSpec {
  const text = value.trim();
  if (text === 'ci') return 'ci';
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match) throw new UsageError('--shard must be K/N (shard K of N, e.g. 2/4) or ci');
  return checked(Number(match[1]), Number(match[2]), '--shard');
}

/** `ci` becomes the job's own share: CI_NODE_INDEX of CI_NODE_TOTAL, both set by `parallel: N`. */
export function resolveShard(spec: ShardSpec, env: NodeJS.ProcessEnv): Shard {
  if (spec !== 'ci') return spec;
  const index = env.CI_NODE_INDEX;
  const total = env.CI_NODE_TOTAL;
  if (index === undefined || total === undefined) {
    throw new UsageError('--shard ci needs CI_NODE_INDEX and CI_NODE_TOTAL, which a job with `parallel: N` has');
  }
  if (!/^\d+$/.test(index) || !/^\d+$/.test(total)) {
    throw new UsageError(`--shard ci: CI_NODE_INDEX=${index} and CI_NODE_TOTAL=${total} must be whole numbers`);
  }
  return checked(Number(index), Number(total), `--shard ci (CI_NODE_INDEX=${index}, CI_NODE_TOTAL=${total})`);
}

function checked(index: number, total: number, what: string): Shard {
  if (total < 1 || total > MAX_SHARDS) throw new UsageError(`${what}: N, the number of shards, must be between 1 and ${MAX_SHARDS}`);
  if (index < 1 || index > total) throw new UsageError(`${what}: K, the shard, must be between 1 and ${total}`);
  return { index, total };
}

/** An item's identity: a record's `id` when it has one (the rest of a record may change between runs), else its text. */
export function shardKey(record: unknown, text: string): string {
  if (record !== null && typeof record === 'object') {
    const id = (record as { id?: unknown }).id;
    if (typeof id === 'number' || (typeof id === 'string' && id !== '')) return String(id);
  }
  return text;
}

/** Whether the item with this identity is this shard's: FNV-1a (32 bits) of the key, modulo N, is K−1. */
export function inShard(key: string, shard: Shard): boolean {
  if (shard.total === 1) return true;
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % shard.total === shard.index - 1;
}
