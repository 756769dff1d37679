// Project imports: `POST /projects/import` (multipart) and
// `GET /projects/:id/import`. The status moves with time:
// scheduled → started → finished, or failed when the file is not gzip.
import { E } from '../server/errors.js';
import { strParam } from '../server/params.js';
import { sendJson } from '../server/respond.js';
import type { ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';
import type { Mounts } from './mounts.js';
import { imports, importState } from './import-state.js';
import { projectIdentity } from '../entities/project.js';
import { ask } from '../engine/ports.js';

/** Each step of an import takes this long. */

function importJson(w: World, p: ProjectRec): Record<string, unknown> {
  const imp = imports(w).get(p.id);
  const st = importState(w, p);
  return {
    ...projectIdentity(w, p),
    import_status: st.status,
    import_type: imp ? 'gitlab_project' : null,
    correlation_id: imp ? imp.correlationId : null,
    failed_relations: [],
    import_error: st.error,
    stats: null,
  };
}

export function mountImports({ root, project }: Mounts): void {
  root.post('/projects/import', { auth: 'user' }, (ctx) => {
    const path = strParam(ctx, 'path');
    const file = ctx.files.file;
    const missing = [];
    if (!path) missing.push('path');
    if (!file) missing.push('file');
    if (missing.length > 0) throw E.missing(...missing);
    const over = (ctx.params.override_params ?? {}) as Record<string, unknown>;
    const p = ask('createProject')(ctx, {
      name: strParam(ctx, 'name') ?? (typeof over.name === 'string' ? over.name : undefined) ?? path,
      path,
      namespace: strParam(ctx, 'namespace'),
      description: typeof over.description === 'string' ? over.description : null,
      visibility: typeof over.visibility === 'string' ? over.visibility : undefined,
      // The export's repository is not read: an import gets the synthetic one.
      repository: 'synthetic',
    });
    const data = file!.data;
    const gz = data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b;
    imports(ctx.world).set(p.id, {
      projectId: p.id,
      startedAt: Date.now(),
      fails: !gz,
      correlationId: `sbx${p.id.toString(36)}${data.length.toString(36)}`,
    });
    p.importStatus = 'scheduled';
    sendJson(ctx, 201, importJson(ctx.world, p));
  });
  project.get('/import', { auth: 'user' }, (ctx, p) => sendJson(ctx, 200, importJson(ctx.world, p)));
}
