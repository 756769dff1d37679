// What one resource offers the others, by name: a resource asks for a port instead of importing
// another resource's store, and the resource that owns the records offers it when it mounts.
import type { PipelineRec, ProjectRec } from '../store/records.js';
import type { World } from '../store/world.js';

/** An issue or a merge request as far as its labels are concerned. */
export interface Labelled {
  state: string;
  labels: readonly string[];
}

export interface Ports {
  /** the issues of a project */
  issuesOf(w: World, projectId: number): readonly Labelled[];
  /** the merge requests of a project */
  mergeRequestsOf(w: World, projectId: number): readonly Labelled[];
  /** how many of a project's issues are open */
  openIssueCount(w: World, projectId: number): number;
  /** the project's approval rules that apply to merge requests into `targetBranch` */
  approvalRulesOf(w: World, projectId: number, targetBranch: string): readonly ApprovalRuleView[];
  /** a new pipeline on a project, answered as the full Pipeline entity */
  startPipeline(w: World, p: ProjectRec, input: PipelineStart): Record<string, unknown>;
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
