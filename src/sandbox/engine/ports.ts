// What one resource offers the others, by name: a resource asks for a port instead of importing
// another resource's store, and the resource that owns the records offers it when it mounts.
import type { NamespaceRef } from '../entities/namespace.js';
import type { CommitChange } from '../resources/commit-revert.js';
import type { Ctx } from '../server/context.js';
import type { MergeRequestRec } from '../resources/merge-request-store.js';
import type { MilestoneRec } from '../resources/milestones.js';
import type { Issue } from '../resources/issue-filters.js';
import type { NewProject } from '../resources/projects.js';
import type { Noteable, NoteRec } from '../resources/notes.js';
import type { CommitRec, GroupRec, IssueRec, PipelineRec, ProjectRec, ShareRec, SnippetRec, UserRec } from '../store/records.js';
import type { TagRec } from '../store/repository.js';
import type { World } from '../store/world.js';

/** An issue or a merge request as far as its labels are concerned. */
export interface Labelled {
  iid: number;
  title: string;
  description: string;
  state: string;
  labels: readonly string[];
}

/** An issue or a merge request as the resources that hang on one (awards, todos, time) see it. */
export interface Issuable {
  type: 'Issue' | 'MergeRequest';
  /** the global id */
  id: number;
  iid: number;
  projectId: number;
  authorId: number;
  assigneeIds: readonly number[];
  title: string;
  description: string;
  state: string;
  labels: readonly string[];
  /** a merge request's source head (which outlives its branch) and target branch */
  refs?: { sourceSha: string; target: string };
  /** the entity its own resource answers for a single read */
  json(): Record<string, unknown>;
}

/** Time tracked on an issue or a merge request, in seconds. */
export interface TrackedTime {
  estimate: number;
  spent: number;
}

/** A note as the notes resource renders it. */
export interface RenderedNote {
  id: number;
  json: Record<string, unknown>;
}

/** The notes of the issue or merge request the route names, oldest first, and a new one. */
export interface NoteThread {
  list(ctx: Ctx, p: ProjectRec): RenderedNote[];
  add(ctx: Ctx, p: ProjectRec, body: string): RenderedNote;
}

export interface Ports {
  /** the issues of a project */
  issuesOf(w: World, projectId: number): readonly Labelled[];
  /** the merge requests of a project */
  mergeRequestsOf(w: World, projectId: number): readonly Labelled[];
  /** how many of a project's issues are open */
  openIssueCount(w: World, projectId: number): number;
  /** the issue `iid` names (by default the route's `:issue_iid`), answering the issues resource's 404 */
  issueOf(ctx: Ctx, p: ProjectRec, iid?: number): Issuable;
  /** the merge request `iid` names (by default the route's `:merge_request_iid`), answering its resource's 404 */
  mergeRequestOf(ctx: Ctx, p: ProjectRec, iid?: number): Issuable;
  /** an issue's notes, as the issue notes routes keep them */
  issueNotes: NoteThread;
  /** a merge request was just opened: its first diff version is taken now */
  mergeRequestOpened(w: World, mr: MergeRequestRec): void;
  /** a merge request's notes, as the merge request notes routes keep them */
  mergeRequestNotes: NoteThread;
  /** the label a project's issues and merge requests can carry by that name (its own or a group's) */
  labelNamed(ctx: Ctx, p: ProjectRec, name: string): { id: number; name: string; color: string; description: string | null } | null;
  /** whether the signed-in caller is subscribed to an issue or merge request (its author and assignees are, until they unsubscribe) */
  isSubscribed(ctx: Ctx, i: Pick<Issuable, 'type' | 'id' | 'authorId' | 'assigneeIds'>): boolean;
  /** the time tracked on an issue or merge request (by global id) */
  trackedTime(w: World, type: Issuable['type'], id: number): TrackedTime;
  /** the project's approval rules that apply to merge requests into `targetBranch` */
  approvalRulesOf(w: World, projectId: number, targetBranch: string): readonly ApprovalRuleView[];
  /** a new pipeline on a project, answered as the full Pipeline entity */
  startPipeline(w: World, p: ProjectRec, input: PipelineStart): Record<string, unknown>;
  /** a pipeline as answered: the full Pipeline entity, or PipelineBasic (nested in jobs and bridges) */
  pipelineJson(w: World, pl: PipelineRec, full: boolean): Record<string, unknown>;
  /** the project's pipeline the path's `:pipeline_id` names, or the service's 400 or 404 */
  findPipeline(ctx: Ctx, p: ProjectRec): PipelineRec;
  /** a project's pipelines as listed (created by now; child pipelines only with source parent_pipeline) */
  listedPipelines(w: World, p: ProjectRec, source: string | undefined): PipelineRec[];
  /** whether a job of `source` may reach `target` with its job token (the target's inbound allowlist) */
  jobTokenReaches(w: World, target: ProjectRec, source: ProjectRec): boolean;
  /** whether a protection rule (a name or a wildcard) covers the branch */
  isProtectedBranch(w: World, projectId: number, name: string): boolean;
  /** whether a protection rule covers the tag */
  isProtectedTag(w: World, projectId: number, name: string): boolean;
  /** whether the user may create the tag under the rules that cover it (any, when none does) */
  mayCreateProtectedTag(w: World, user: UserRec | null, p: ProjectRec, name: string): boolean;
  /** whether the user may push code and merge into the branch under the rules that cover it */
  mayMergeInto(w: World, user: UserRec | null, p: ProjectRec, branch: string): boolean;
  /** the files of a branch: the seeded ones and those written through the API */
  branchFiles(w: World, projectId: number, branch: string): Map<string, Buffer>;
  /** a new branch starts with the files written on the branch it was made from */
  startBranchFiles(w: World, projectId: number, branch: string, from: string | undefined): void;
  /** the branch a ref names, or the one holding the commit */
  branchOf(ctx: Ctx, p: ProjectRec, ref: string, sha: string): string;
  /** a namespace by integer id or full path */
  findNamespace(w: World, idOrPath: string): NamespaceRef | null;
  /** whether the signed-in user may create or move projects into the namespace */
  canUseNamespace(ctx: Ctx, ns: NamespaceRef): boolean;
  /** the groups a project is shared with */
  sharesOf(w: World, projectId: number): ShareRec[];
  /** the issue the path's `:issue_iid` names, if the user may see it (404 otherwise, or `notFound`) */
  findIssue(ctx: Ctx, p: ProjectRec, notFound?: () => Error): Issue;
  /** stores a changed issue */
  saveIssue(ctx: Ctx, p: ProjectRec, issue: Issue): void;
  /** a seeded issue as first derived from the seed, before any change */
  deriveIssue(w: World, projectId: number, iid: number): IssueRec | null;
  /** a project's own milestones */
  projectMilestones(w: World, projectId: number): readonly MilestoneRec[];
  /** a milestone as answered */
  milestoneJson(ctx: Ctx, m: MilestoneRec): Record<string, unknown>;
  /** a new tag at a ref (the service's 400 for a bad name or ref) */
  createTag(ctx: Ctx, p: ProjectRec, name: string, ref: string, message: string | undefined): TagRec;
  /** whether the user may create the tag under the protection rules */
  mayCreateTag(ctx: Ctx, p: ProjectRec, name: string): boolean;
  /** a snippet as answered */
  snippetJson(w: World, s: SnippetRec): Record<string, unknown>;
  /** a new project (POST /projects, imports, forks), or the service's refusal of the input */
  createProject(ctx: Ctx, input: NewProject): ProjectRec;
  /** a note (comment) as answered */
  noteJson(w: World, noteable: Noteable, note: NoteRec): Record<string, unknown>;
  /** the `body` of a new or changed note, or the service's 400 for a missing or blank one */
  noteBody(ctx: Ctx): string;
  /** how many issues the instance holds, and their notes */
  issueTotals(w: World): { issues: number; notes: number };
  /** how many merge requests the instance holds */
  mergeRequestTotal(w: World): number;
  /** how many project milestones the instance holds */
  milestoneTotal(w: World): number;
  /** how many forks were made */
  forkTotal(w: World): number;
  /** a hard user deletion: the issues the user authored go, in every project */
  removeIssuesAuthoredBy(w: World, userId: number): void;
  /** a hard user deletion: the merge requests the user authored go, in every project */
  removeMergeRequestsAuthoredBy(w: World, userId: number): void;
  /** the user the path's `:id` names (the service's 400 for a non-integer, 404 for none) */
  targetUser(ctx: Ctx): UserRec;
  /** the User entity as `viewer` may see it (admin fields to administrators) */
  userJson(w: World, u: UserRec, viewer: UserRec | null): Record<string, unknown>;
  /** a change to a user: its `updated_at`, and the lists and orderings that show it */
  userChanged(ctx: Ctx, user: UserRec): void;
  /** the Group entity as the groups list answers it */
  groupJson(w: World, g: GroupRec, viewer: UserRec | null): Record<string, unknown>;
  /** a project's protected branch rules, with each rule as answered */
  protectedBranchesOf(w: World, projectId: number): Array<{ id: number; name: string; json: Record<string, unknown> }>;
  /** whether a protected branch rule (a name or a wildcard) covers the branch */
  branchRuleCovers(rule: string, branch: string): boolean;
  /** whether the user may push to the branch under the rules that cover it */
  mayPushTo(w: World, user: UserRec | null, p: ProjectRec, branch: string): boolean;
  /** a file written through the API on a branch (null: deleted) */
  writeFile(w: World, projectId: number, branch: string, path: string, content: Buffer | null): void;
  /** whether a file on a branch has the executable mode */
  isExecutable(w: World, projectId: number, branch: string, path: string): boolean;
  /** sets or clears a file's executable mode on a branch */
  setExecutable(w: World, projectId: number, branch: string, path: string, on: boolean): void;
  /** a commit as `Entities::CommitDetail` answers it */
  commitDetailJson(w: World, p: ProjectRec, c: CommitRec): Record<string, unknown>;
  /** keeps what a commit changed, so it can be reverted */
  recordCommitChange(w: World, commitId: string, change: CommitChange): void;
  /** the newest pipeline (by id) run on a ref of the project, if any */
  newestPipelineOn(w: World, projectId: number, ref: string): PipelineRec | null;
  /** a pipeline's status as its jobs make it now */
  pipelineStatus(w: World, pl: PipelineRec): string;
  /** a job as answered (the Job entity), or null when there is none */
  jobJson(w: World, jobId: number): Record<string, unknown> | null;
  /** Markdown as `POST /markdown` renders it (`gfm`: with source positions) */
  renderMarkdown(text: string, gfm: boolean): string;
}

/** A project approval rule as a merge request's approval state reads it. */
export interface ApprovalRuleView {
  id: number;
  name: string;
  approvalsRequired: number;
  userIds: readonly number[];
  groupIds: readonly number[];
  /** who may approve: the users, and the developers and up of the groups */
  eligibleIds: readonly number[];
}

export interface PipelineStart {
  ref: string;
  sha: string;
  userId: number;
  variables: PipelineRec['variables'];
  source: string;
}

const offered: Partial<Ports> = {};

export function offer<K extends keyof Ports>(name: K, port: Ports[K]): void {
  offered[name] = port;
}

/** The port; asking for one no mounted resource offers is a mistake in the sandbox itself. */
export function ask<K extends keyof Ports>(name: K): Ports[K] {
  const port = offered[name];
  if (!port) throw new Error(`no resource offers the port ${name}`);
  return port;
}
