// Every resource of the sandbox. Adding one: a file exporting
// `mountX(mounts)` (store access, serializer, routes) and a line here.
import type { Router } from '../server/router.js';
import { mountAccessTokens } from './access-tokens.js';
import { mountAuditEvents } from './audit-events.js';
import { auditWrite } from './audit-log.js';
import { mountBranches } from './branches.js';
import { mountCiLint } from './ci-lint.js';
import { mountCommitStatuses } from './commit-statuses.js';
import { mountCommitComments } from './commit-comments.js';
import { mountCommitActions } from './commit-actions.js';
import { mountCommits } from './commits.js';
import { mountCompare } from './compare.js';
import { mountContainerRegistry } from './container-registry.js';
import { mountDeployTokens } from './deploy-tokens.js';
import { mountDiscussions } from './discussions.js';
import { mountEvents, recordEvent } from './events.js';
import { mountDeployments } from './deployments.js';
import { mountEnvironments } from './environments.js';
import { mountFiles } from './files.js';
import { mountGroupWrites } from './group-writes.js';
import { mountGroups } from './groups.js';
import { mountImports } from './imports.js';
import { mountIssues } from './issues.js';
import { mountJobArtifacts } from './job-artifacts.js';
import { mountJobs } from './jobs.js';
import { mountJobTokenScope } from './job-token-scope.js';
import { mountLabelResources } from './labels.js';
import { mountMemberWrites } from './member-writes.js';
import { mountMembers } from './members.js';
import { mountMilestoneResources } from './milestones.js';
import { mountMergeRequestActions } from './merge-request-actions.js';
import { mountAutoMerge } from './merge-request-auto-merge.js';
import { mountMergeRequestVersions } from './merge-request-versions.js';
import { mountMergeRequests } from './merge-requests.js';
import { type Mounts, mounts } from './mounts.js';
import { mountBadgeResources } from './badges.js';
import { mountIssuableExtras } from './issuable-extras.js';
import { mountIssueLinks } from './issue-links.js';
import { mountMarkdown } from './markdown.js';
import { mountMergeRequestCommits } from './merge-request-commits.js';
import { mountTimeTracking } from './time-tracking.js';
import { mountProjectSnippets } from './project-snippets.js';
import { mountProjectSocial } from './project-social.js';
import { mountProjectUploads } from './project-uploads.js';
import { mountRepositoryReads } from './repository-reads.js';
import { mountSearch } from './search.js';
import { mountTemplates } from './templates.js';
import { mountTopics } from './topics.js';
import { mountUserExtras } from './user-extras.js';
import { mountNamespaces } from './namespaces.js';
import { mountNotes } from './notes.js';
import { mountOAuth } from './oauth.js';
import { mountPackages } from './packages.js';
import { mountPipelineActions } from './pipeline-actions.js';
import { mountPersonalTokens } from './personal-tokens.js';
import { mountPipelines } from './pipelines.js';
import { mountPipelineSchedules } from './pipeline-schedules.js';
import { mountBridges } from './bridges.js';
import { mountBroadcastMessages } from './broadcast-messages.js';
import { mountTriggers } from './triggers.js';
import { mountProjectExport } from './project-export.js';
import { mountProjectLifecycle } from './project-lifecycle.js';
import { mountProjects } from './projects.js';
import { mountProtectedRefs } from './protected-refs.js';
import { mountReleases } from './releases.js';
import { mountResourceLabelEvents, recordLabelEvents } from './resource-label-events.js';
import { mountGenericPackages } from './generic-packages.js';
import { mountRunners } from './runners.js';
import { mountInstanceStatistics } from './instance-statistics.js';
import { mountSettings } from './settings.js';
import { mountSharing } from './sharing.js';
import { mountSnippets } from './snippets.js';
import { mountStorageMoves } from './storage-moves.js';
import { mountTags } from './tags.js';
import { mountTree } from './tree.js';
import { mountUserDeletion } from './user-deletion.js';
import { mountArchives } from './archives.js';
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
  mountAutoMerge,
  mountMergeRequestVersions,
  mountFiles,
  mountBranches,
  mountCommits,
  mountCommitComments,
  mountCommitActions,
  mountCommitStatuses,
  mountCompare,
  mountTags,
  mountProtectedRefs,
  mountTree,
  mountArchives,
  mountBridges,
  mountTriggers,
  mountPipelines,
  mountPipelineActions,
  mountPipelineSchedules,
  mountEnvironments,
  mountDeployments,
  mountJobTokenScope,
  mountCiLint,
  mountJobs,
  mountJobArtifacts,
  mountReleases,
  mountContainerRegistry,
  mountPackages,
  mountResourceLabelEvents,
  mountGenericPackages,
  mountVariables,
  mountUsers,
  mountUserWrites,
  mountUserDeletion,
  mountGroups,
  mountGroupWrites,
  mountNamespaces,
  mountSnippets,
  mountStorageMoves,
  mountSettings,
  mountInstanceStatistics,
  mountBroadcastMessages,
  mountOAuth,
  mountPersonalTokens,
  mountAccessTokens,
  mountDeployTokens,
  mountRunners,
  mountAuditEvents,
  mountProjectExport,
  mountBadgeResources,
  mountIssuableExtras,
  mountIssueLinks,
  mountDiscussions,
  mountEvents,
  mountMarkdown,
  mountMergeRequestCommits,
  mountTimeTracking,
  mountProjectSnippets,
  mountProjectSocial,
  mountProjectUploads,
  mountRepositoryReads,
  mountSearch,
  mountTemplates,
  mountTopics,
  mountUserExtras,
];

export function mountResources(router: Router): void {
  const m = mounts(router);
  router.observeWrites(auditWrite);
  router.observeWrites(recordEvent);
  router.observeWrites(recordLabelEvents);
  for (const mount of RESOURCES) mount(m);
}
