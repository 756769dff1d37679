// What one resource offers the others, by name: a resource asks for a port instead of importing
// another resource's store, and the resource that owns the records offers it when it mounts.
import type { Ctx } from '../server/context.js';
import type { PipelineRec, ProjectRec } from '../store/records.js';
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
  /** a merge request's notes, as the merge request notes routes keep them */
  mergeRequestNotes: NoteThread;
  /** the label a project's issues and merge requests can carry by that name (its own or a group's) */
  labelNamed(ctx: Ctx, p: ProjectRec, name: string): { id: number; name: string; color: string; description: string | null } | null;
  /** the time tracked on an issue or merge request (by global id) */
  trackedTime(w: World, type: Issuable['type'], id: number): TrackedTime;
  /** a new pipeline on a project, answered as the full Pipeline entity */
  startPipeline(w: World, p: ProjectRec, input: PipelineStart): Record<string, unknown>;
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
