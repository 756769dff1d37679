import { ApiError } from '../http/api-error.js';
import type { HttpClient } from '../http/client.js';
import { apiPath } from '../http/encode.js';
import { getProject, listProjects } from './projects.js';
import { trackableId } from './records.js';
import type { MoveKind } from './storage-moves.js';

/** A project, snippet or group as far as moving its repository goes. */
export interface Container {
  id: number;
  label: string;
  storage?: string;
}

interface StoredRecord {
  id: number;
  repository_storage?: string;
  path_with_namespace?: string;
  full_path?: string;
  title?: string;
}

function toContainer(kind: MoveKind, record: StoredRecord): Container {
  const label = kind === 'project' ? record.path_with_namespace : kind === 'group' ? record.full_path : record.title;
  return { id: record.id, label: label ?? String(record.id), storage: record.repository_storage };
}

/**
 * The containers whose repository is on `storage`, or undefined when the instance cannot say:
 * projects via `GET /projects?repository_storage=` (keyset by id); groups via
 * `GET /groups?repository_storage=` and snippets via `GET /snippets/all?repository_storage=`
 * (both admin filters from 16.3). A listing is trusted only when every record names its
 * storage, so a server that ignores the filter never makes other storages' repositories move.
 */
export async function listContainersOnStorage(
  http: HttpClient,
  kind: MoveKind,
  storage: string,
): Promise<{ containers: Container[]; date?: string } | undefined> {
  const pages =
    kind === 'project'
      ? listProjects(http, { repository_storage: storage, per_page: 100, sort: 'asc' }, true)
      : http.pages<StoredRecord>(kind === 'group' ? '/groups' : '/snippets/all', {
          repository_storage: storage,
          ...(kind === 'group' ? { all_available: true, order_by: 'id', sort: 'asc' } : {}),
          per_page: 100,
        });
  const containers: Container[] = [];
  let date: string | undefined;
  try {
    for await (const page of pages) {
      date ??= page.headers.date;
      for (const record of page.items as StoredRecord[]) {
        if (record.repository_storage === undefined && kind !== 'project') return undefined;
        if (record.repository_storage !== undefined && record.repository_storage !== storage) continue;
        trackableId(record.id, `listing ${kind}s on ${storage}`);
        containers.push(toContainer(kind, record));
      }
    }
  } catch (error) {
    if (kind !== 'project' && error instanceof ApiError && (error.status === 404 || error.status === 400)) return undefined;
    throw error;
  }
  return { containers, date };
}

export async function getContainer(http: HttpClient, kind: MoveKind, ref: string): Promise<Container> {
  if (kind === 'project') return toContainer(kind, await getProject(http, ref));
  const path = kind === 'snippet' ? apiPath`/snippets/${ref}` : apiPath`/groups/${ref}`;
  return toContainer(kind, await http.record<StoredRecord>({ path }));
}
