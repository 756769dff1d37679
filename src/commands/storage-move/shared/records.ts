import { moveContainer, type StorageMove } from '../../../api/storage-moves.js';

export const MOVE_STATES = ['initial', 'scheduled', 'started', 'replicated', 'finished', 'failed', 'cleanup failed'];
export const MOVE_COLUMNS = ['id', 'state', 'source_storage_name', 'destination_storage_name', 'container_id', 'container', 'created_at'];

/** A move record plus `container_id`/`container` (the project path, snippet title or group name) for tables. */
export function withContainer(move: StorageMove): StorageMove & { container_id?: number; container?: string } {
  const ref = moveContainer(move);
  return { ...move, container_id: ref?.id, container: ref?.label };
}

/** Records already in memory, for the writers that stream. */
export async function* toAsync<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}
