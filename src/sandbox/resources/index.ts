// Every resource of the sandbox. Adding one: a file exporting
// `mountX(mounts)` (store access, serializer, routes) and a line here.
import type { Router } from '../server/router.js';
import { mountAccessTokens } from './access-tokens.js';
import { mountApprovalRules } from './approval-rules.js';
import { mountAuditEvents } from './audit-events.js';
import { auditWrite } from './audit-log.js';
import { mountBranches } from './branches.js';
import { mountCommitStatuses } from './commit-statuses.js';
import { mountCommits } from './commits.js';
import { mountCompare } from './compare.js';
import { mountDeployKeys } from './deploy-keys.js';
import { mountDeployTokens } from './deploy-tokens.js';
import { mountFiles } from './files.js';
import { mountHookDeliveries } from './hook-deliveries.js';
import { mountHookResources } from './hooks.js';
import { mountGroupWrites } from './group-writes.js';
import { mountGroups } from './groups.js';
import { mountImports } from './imports.js';
import { mountIssues } from './issues.js';
import { mountJobArtifacts } from './job-artifacts.js';
import { mountJobs } from './jobs.js';
import { mountKeys } from './keys.js';
import { mountLabelResources } from './labels.js';
import { mountMemberWrites } from './member-writes.js';
import { mountMembers } from './members.js';
import { mountMilestoneResources } from './milestones.js';
import { mountMergeRequestActions } from './merge-request-actions.js';
import { mountMergeRequests } from './merge-requests.js';
import { type Mounts, mounts } from './mounts.js';
import { mountNamespaces } from './namespaces.js';
import { mountNotes } from './notes.js';
import { mountOAuth } from './oauth.js';
import { mountPipelineActions } from './pipeline-actions.js';
import { mountPersonalTokens } from './personal-tokens.js';
import { mountPipelines } from './pipelines.js';
import { mountPipelineSchedules } from './pipeline-schedules.js';
import { mountBridges } from './bridges.js';
import { mountTriggers } from './triggers.js';
import { mountProjectExport } from './project-export.js';
import { mountProjectLifecycle } from './project-lifecycle.js';
import { mountProjects } from './projects.js';
import { mountProtectedRefs } from './protected-refs.js';
import { mountReleases } from './releases.js';
import { mountRunners } from './runners.js';
import { mountSettings } from './settings.js';
import { mountSharing } from './sharing.js';
import { mountSnippets } from './snippets.js';
import { mountStorageMoves } from './storage-moves.js';
import { mountTags } from './tags.js';
import { mountTree } from './tree.js';
import { mountUserWrites } from './user-writes.js';
import { mountUsers } from './users.js';
import { mountVariables } from './variables.js';

const RESOURCES: Array<(m: Mounts) => void> = [
  mountProjects,
  mountProjectLifecycle,
  mountImports,
  mountSharing,
  mountMembers,
  mountMemberWrites,
  mountIssues,
  mountLabelResources,
  mountMilestoneResources,
  mountNotes,
  mountMergeRequests,
  mountMergeRequestActions,
  mountApprovalRules,
  mountFiles,
  mountBranches,
  mountCommits,
  mountCommitStatuses,
  mountCompare,
  mountTags,
  mountProtectedRefs,
  mountTree,
  mountBridges,
  mountTriggers,
  mountPipelines,
  mountPipelineActions,
  mountPipelineSchedules,
  mountJobs,
  mountJobArtifacts,
  mountReleases,
  mountVariables,
  mountUsers,
  mountUserWrites,
  mountGroups,
  mountGroupWrites,
  mountNamespaces,
  mountSnippets,
  mountStorageMoves,
  mountSettings,
  mountOAuth,
  mountPersonalTokens,
  mountAccessTokens,
  mountDeployTokens,
  mountDeployKeys,
  mountKeys,
  mountHookResources,
  mountHookDeliveries,
  mountRunners,
  mountAuditEvents,
  mountProjectExport,
];

export function mountResources(router: Router): void {
  const m = mounts(router);
  router.observeWrites(auditWrite);
  for (const mount of RESOURCES) mount(m);
}
