import type { HttpClient, Page } from '../http/client.js';
import type { QueryParams } from '../http/encode.js';

export interface AuditEvent {
  id: number;
  author_id: number;
  entity_id: number;
  entity_type: string;
  event_name: string;
  details: Record<string, unknown>;
  created_at: string;
}

/**
 * Audit events under `scope` (`''`, `/groups/:id` or `/projects/:id`), newest first, by keyset
 * pages (`id desc`, the cursor in `Link`): the service offers keyset on all three, and an offset
 * walk of a log that grows while it is read would skip or repeat events. The service has no
 * `id_after`/`id_before` here, so the walk cannot be split into id ranges (src/workflows/parallel-list).
 */
export function auditEventPages(http: HttpClient, scope: string, query: QueryParams): AsyncGenerator<Page<AuditEvent>> {
  return http.pages<AuditEvent>(`${scope}/audit_events`, { ...query, pagination: 'keyset' });
}
