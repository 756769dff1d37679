import type { Command } from 'commander';
import type { CommandSpec, LeafSpec } from '../cli/spec.js';
import type { Runtime } from '../runtime.js';

/** A noun's module: generated and hand-written verbs, or (for a command without verbs) its own wiring. */
export interface CommandModule {
  commands?: CommandSpec<unknown>[];
  /** A command without verbs (`svc api PATH`); its description is the registry's summary. */
  command?: LeafSpec<unknown>;
  register?: (parent: Command, runtime: Runtime, summary: string) => void;
  examples?: string[];
}

export interface NounEntry {
  name: string;
  /** Other names the noun answers to (`merge-requests` for `mr`). */
  aliases?: string[];
  /** The one description of the noun, shown in `svc --help` and in the noun's own help. */
  summary: string;
  /** A command with no verbs of its own (`svc api PATH`): its module wires itself on the root. */
  leaf?: boolean;
  load: () => Promise<CommandModule>;
}

/** Command modules load only when their noun is used, so `svc --version` and `svc --help` stay fast. */
export const NOUNS: NounEntry[] = [
  {
    name: 'projects',
    summary: 'List, show, create, import, update, archive, share, fork, transfer, delete and restore projects',
    load: () => import('./projects/index.js'),
  },
  {
    name: 'issues',
    summary: "List, show, open, change, close and comment on issues (by the issue's iid, the number shown in the web UI)",
    load: () => import('./issues/index.js'),
  },
  {
    name: 'mr',
    aliases: ['merge-requests'],
    summary: 'List, open, update, merge, approve, comment on and diff merge requests (by iid, !12 in the web UI)',
    load: () => import('./mr/index.js'),
  },
  {
    name: 'pipeline',
    summary: 'List, show, trigger, cancel, retry and delete pipelines, and wait for their result',
    load: () => import('./pipeline/index.js'),
  },
  {
    name: 'schedules',
    summary: 'List, show, create, update, delete and play pipeline schedules',
    load: () => import('./schedules/index.js'),
  },
  { name: 'files', summary: 'Read repository files (metadata, or the raw bytes)', load: () => import('./files/index.js') },
  {
    name: 'branches',
    summary: 'List, show, create and delete branches, and list their commits (names with / and + work as typed)',
    load: () => import('./branches/index.js'),
  },
  {
    name: 'tags',
    summary: 'List, show, create and delete repository tags (names with / and + work as typed)',
    load: () => import('./tags/index.js'),
  },
  {
    name: 'protected-branches',
    summary: 'List, protect, update and unprotect branches and wildcards (release/*)',
    load: () => import('./protected-branches/index.js'),
  },
  {
    name: 'protected-tags',
    summary: 'List, protect and unprotect tags and wildcards (v*)',
    load: () => import('./protected-tags/index.js'),
  },
  {
    name: 'approval-rules',
    summary: "List, show, create, update and delete a project's merge request approval rules",
    load: () => import('./approval-rules/index.js'),
  },
  {
    name: 'hooks',
    summary: "List, show, create, update, delete and test a project's, a group's or the instance's webhooks, and see their deliveries",
    load: () => import('./hooks/index.js'),
  },
  {
    name: 'deploy-keys',
    summary: "List, add, enable, update and delete a project's deploy keys, or the instance's",
    load: () => import('./deploy-keys/index.js'),
  },
  {
    name: 'keys',
    summary: "List, add and delete users' SSH and GPG keys",
    load: () => import('./keys/index.js'),
  },
  {
    name: 'commits',
    summary: "List and show a repository's commits, set and list their statuses",
    load: () => import('./commits/index.js'),
  },
  { name: 'repo', summary: 'Browse a repository: list the files of its tree, compare two refs', load: () => import('./repo/index.js') },
  {
    name: 'jobs',
    summary: 'List and show jobs, read their logs, retry, cancel and play them, download their artifacts',
    load: () => import('./jobs/index.js'),
  },
  {
    name: 'variables',
    summary: 'List, show, set, delete, export and sync CI/CD variables of a project, a group or the instance',
    load: () => import('./variables/index.js'),
  },
  {
    name: 'releases',
    summary: 'List, show, publish, update and delete releases (works with a CI job token)',
    load: () => import('./releases/index.js'),
  },
  {
    name: 'namespaces',
    summary: 'List the user and group namespaces you can create projects in',
    load: () => import('./namespaces/index.js'),
  },
  {
    name: 'groups',
    summary: 'List, show, create, update, transfer and delete groups; list their subgroups and projects',
    load: () => import('./groups/index.js'),
  },
  {
    name: 'members',
    summary: "List, add, change and remove a project's or a group's members and their access levels (inherited too)",
    load: () => import('./members/index.js'),
  },
  {
    name: 'labels',
    summary: "List, show, create, update and delete a project's or a group's labels",
    load: () => import('./labels/index.js'),
  },
  {
    name: 'milestones',
    summary: 'List, show, create, update, close, activate and delete milestones',
    load: () => import('./milestones/index.js'),
  },
  {
    name: 'users',
    summary: 'List, show, create and update users, block, deactivate or ban them, and list their projects',
    load: () => import('./users/index.js'),
  },
  {
    name: 'tokens',
    summary: 'List, create, rotate and revoke access tokens of users, projects and groups; audit every token of the instance',
    load: () => import('./tokens/index.js'),
  },
  {
    name: 'runners',
    summary: 'List, show, pause, resume and delete CI runners, list their jobs, prune stale ones',
    load: () => import('./runners/index.js'),
  },
  {
    name: 'audit-events',
    summary: 'Read the audit log of the instance, a group or a project (who changed what, and when)',
    load: () => import('./audit-events/index.js'),
  },
  {
    name: 'snippets',
    summary: 'List, show, read, create, update and delete personal snippets (with the CAPTCHA step when flagged as spam)',
    load: () => import('./snippets/index.js'),
  },
  { name: 'auth', summary: 'Log in, log out and check which credentials are used', load: () => import('./auth/index.js') },
  { name: 'config', summary: 'Read and change the settings of config profiles', load: () => import('./config/index.js') },
  {
    name: 'api',
    summary: 'Send any request to the API (path relative to /api/v4) with the same credentials, retries and redirects',
    leaf: true,
    load: () => import('./api/index.js'),
  },
  {
    name: 'completion',
    summary: 'Print a shell completion script for every command and option',
    leaf: true,
    load: () => import('./completion/index.js'),
  },
  {
    name: 'storage-move',
    summary: 'Move repositories between storages: weights, schedule, watch to the end, verify',
    load: () => import('./storage-move/index.js'),
  },
  {
    name: 'bulk',
    summary: 'Run one svc command per input record (NDJSON or ids on stdin), in parallel, resumable with a journal',
    leaf: true,
    load: () => import('./bulk/index.js'),
  },
  {
    name: 'sandbox',
    summary: 'Run a local emulation of the service on loopback until Ctrl-C (for trying commands and testing scripts)',
    leaf: true,
    load: () => import('./sandbox/index.js'),
  },
];
