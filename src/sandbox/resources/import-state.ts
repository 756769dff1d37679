// Where each project import stands, read by the project entity and written by the import routes.
import { storeFor } from '../store/collection.js';
import type { ImportRec, ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';

export const IMPORT_STEP_MS = 100;

export const imports = storeFor(() => new Map<number, ImportRec>());

export function importState(w: World, p: ProjectRec): { status: string; error: string | null } {
  const imp = imports(w).get(p.id);
  if (!imp) return { status: p.importStatus, error: null };
  const t = Date.now() - imp.startedAt;
  if (t < IMPORT_STEP_MS) return { status: 'scheduled', error: null };
  if (t < 2 * IMPORT_STEP_MS) return { status: 'started', error: null };
  if (imp.fails)
    return { status: 'failed', error: 'Unable to decompress the import archive: the file is not a gzip-compressed tar archive' };
  return { status: 'finished', error: null };
}
