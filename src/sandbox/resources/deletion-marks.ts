// Projects marked for delayed deletion, read by the project entity and written by its lifecycle routes.
import { storeFor } from '../store/collection.js';
import type { World } from '../store/world.js';
import { iso } from '../util/time.js';

const DAY = 86_400_000;
const ADJOURNED_DAYS = 7;

/** When each project was marked for deletion (ms). */
export const marked = storeFor(() => new Map<number, number>());

/** `marked_for_deletion_at` / `_on` of a project, null when it is not marked. */
export function deletionMark(w: World, id: number): { at: string; on: string } | null {
  const at = marked(w).get(id);
  if (at === undefined) return null;
  return { at: iso(at), on: iso(at + ADJOURNED_DAYS * DAY).slice(0, 10) };
}
