// Per-project routes: issues and notes, repository (files, branches,
// commits, tags), pipelines and jobs, artifacts, releases, sharing, import.
import { ApiError, type Core, type Ctx, E, sendJson, sendText } from './core.js';
import { BRANCHES, type CommitRec, PIPELINE_STEP_MS, type PipelineRec, type ProjectRec, type JobRec } from './data.js';
import { findProject, intParam, intSeg, offsetPage, requireWrite, sendList, strParam } from './paging.js';
import { createProject } from './routes-core.js';
import { iso } from './util.js';

const STATUS_LABEL: Record<string, string> = { success: 'passed', failed: 'failed', running: 'running', pending: 'pending', created: 'created' };

function pipelineState(pl: PipelineRec): { status: string; startedAt: number | null; finishedAt: number | null; updatedAt: number } {
  if (pl.fixedStatus) {
    return { status: pl.fixedStatus, startedAt: pl.createdAt + 20_000, finishedAt: pl.createdAt + 320_000, updatedAt: pl.createdAt + 320_000 };
  }
  const t = Date.now() - pl.createdAt;
  const s = PIPELINE_STEP_MS;
  if (t < s) return { status: 'created', startedAt: null, finishedAt: null, updatedAt: pl.createdAt };
  if (t < 2 * s) return { status: 'pending', startedAt: null, finishedAt: null, updatedAt: pl.createdAt + s };
  if (t < 3 * s) return { status: 'running', startedAt: pl.createdAt + 2 * s, finishedAt: null, updatedAt: pl.createdAt + 2 * s };
  return { status: pl.willFail ? 'failed' : 'success', startedAt: pl.createdAt + 2 * s, finishedAt: pl.createdAt + 3 * s, updatedAt: pl.createdAt + 3 * s };
}

function detailedStatus(status: string, path: string): Record<string, unknown> {
  const label = STATUS_LABEL[status] ?? status;
  return {
    icon: `status_${status}`,
    text: label,
    label,
    group: status,
    tooltip: label,
    has_details: true,
    details_path: path,
    illustration: null,
    favicon: `/assets/ci_favicons/favicon_status_${status}.png`,
  };
}

function pipelineJson(ctx: Ctx, pl: PipelineRec, full: boolean): Record<string, unknown> {
  const w = ctx.world;
  const p = w.projects[pl.projectId]!;
  const st = pipelineState(pl);
  const web = `${w.base()}/${p.fullPath}/-/pipelines/${pl.id}`;
  const out: Record<string, unknown> = {
    id: pl.id,
    iid: pl.iid,
    project_id: pl.projectId,
    sha: pl.sha,
    ref: pl.ref,
    status: st.status,
    source: pl.fixedStatus ? 'push' : 'api',
    created_at: iso(pl.createdAt),
    updated_at: iso(st.updatedAt),
    web_url: web,
  };
  if (!full) return out;
  const duration = st.startedAt && st.finishedAt ? Math.round((st.finishedAt - st.startedAt) / 1000) : null;
  Object.assign(out, {
    before_sha: '0000000000000000000000000000000000000000',
    tag: false,
    yaml_errors: null,
    user: w.userBasic(w.users[pl.userId] ?? w.users[1]!),
    started_at: st.startedAt ? iso(st.startedAt) : null,
    finished_at: st.finishedAt ? iso(st.finishedAt) : null,
    committed_at: null,
    duration,
    queued_duration: st.startedAt ? Math.round((st.startedAt - pl.createdAt) / 1000) : null,
    coverage: null,
    detailed_status: detailedStatus(st.status, `/${p.fullPath}/-/pipelines/${pl.id}`),
    name: null,
  });
  return out;
}

function jobStatus(job: JobRec, pl: PipelineRec): string {
  const s = pipelineState(pl).status;
  if (job.name === 'build' && (s === 'success' || s === 'failed')) return 'success';
  return s;
}

function jobJson(ctx: Ctx, job: JobRec): Record<string, unknown> {
  const w = ctx.world;
  const pl = w.pipeline(job.pipelineId)!;
  const p = w.projects[job.projectId]!;
  const st = pipelineState(pl);
  const status = jobStatus(job, pl);
  const commit = w.findCommit(job.projectId, pl.sha);
  const finished = status === 'success' || status === 'failed';
  const size = w.artifactSize(job.id);
  const archive = job.hasArtifacts && status === 'success';
  return {
    id: job.id,
    status,
    stage: job.stage,
    name: job.name,
    ref: pl.ref,
    tag: false,
    coverage: null,
    allow_failure: false,
    created_at: iso(pl.createdAt),
    started_at: st.startedAt ? iso(st.startedAt) : null,
    finished_at: finished && st.finishedAt ? iso(st.finishedAt) : null,
    erased_at: null,
    duration: finished && st.startedAt && st.finishedAt ? (st.finishedAt - st.startedAt) / 1000 : null,
    queued_duration: st.startedAt ? (st.startedAt - pl.createdAt) / 1000 : null,
    user: w.userBasic(w.users[pl.userId] ?? w.users[1]!),
    commit: commit ? w.commitJson(job.projectId, commit) : null,
    pipeline: pipelineJson(ctx, pl, false),
    web_url: `${w.base()}/${p.fullPath}/-/jobs/${job.id}`,
    project: { ci_job_token_scope_enabled: false },
    artifacts: archive ? [{ file_type: 'archive', size, filename: 'artifacts.zip', file_format: 'zip' }] : [],
    artifacts_file: archive ? { filename: 'artifacts.zip', size } : undefined,
    runner: null,
    artifacts_expire_at: null,
    archived: false,
    tag_list: [],
  };
}

function branchJson(ctx: Ctx, p: ProjectRec, name: string): Record<string, unknown> {
  const head = ctx.world.branchCommits(p.id, name)![0]!;
  return {
    name,
    merged: false,
    protected: name === 'main',
    default: name === 'main',
    developers_can_push: false,
    developers_can_merge: false,
    can_push: ctx.world.canWriteProject(ctx.user, p),
    web_url: `${ctx.world.base()}/${p.fullPath}/-/tree/${name}`,
    commit: ctx.world.commitJson(p.id, head),
  };
}

function releaseJson(ctx: Ctx, p: ProjectRec, r: { tagName: string; name: string; description: string; createdAt: number; releasedAt: number; authorId: number; sha: string }) {
  const w = ctx.world;
  const web = `${w.base()}/${p.fullPath}`;
  const commit = w.findCommit(p.id, r.sha);
  const tagEnc = encodeURIComponent(r.tagName);
  return {
    name: r.name,
    tag_name: r.tagName,
    description: r.description,
    description_html: `<p>${r.description}</p>`,
    created_at: iso(r.createdAt),
    released_at: iso(r.releasedAt),
    upcoming_release: r.releasedAt > Date.now(),
    author: w.userBasic(w.users[r.authorId] ?? w.users[1]!),
    commit: commit ? w.commitJson(p.id, commit) : null,
    commit_path: `/${p.fullPath}/-/commit/${r.sha}`,
    tag_path: `/${p.fullPath}/-/tags/${tagEnc}`,
    assets: {
      count: 4,
      sources: ['zip', 'tar.gz', 'tar.bz2', 'tar'].map((f) => ({ format: f, url: `${web}/-/archive/${tagEnc}/${p.path}-${tagEnc}.${f}` })),
      links: [],
    },
    evidences: [],
    _links: { self: `${web}/-/releases/${tagEnc}`, edit_url: `${web}/-/releases/${tagEnc}/edit` },
  };
}

function importJson(ctx: Ctx, p: ProjectRec): Record<string, unknown> {
  const w = ctx.world;
  const imp = w.imports.get(p.id);
  const st = w.importState(p);
  return {
    ...w.projectIdentity(p),
    import_status: st.status,
    import_type: imp ? 'gitlab_project' : null,
    correlation_id: imp ? imp.correlationId : null,
    failed_relations: [],
    import_error: st.error,
    stats: null,
  };
}

function requireRef(ctx: Ctx, p: ProjectRec, ref: string | undefined): string {
  if (ref === undefined || ref === '') throw E.missing('ref');
  const sha = ctx.world.resolveRef(p.id, ref);
  if (!sha) throw E.notFound('Commit');
  return sha;
}

function fileHeaders(name: string, path: string, ref: string, sha: string, blob: { blobId: string; sha256: string }, size: number): Record<string, string> {
  return {
    'X-Gitlab-Blob-Id': blob.blobId,
    'X-Gitlab-Commit-Id': sha,
    'X-Gitlab-Content-Sha256': blob.sha256,
    'X-Gitlab-Encoding': 'base64',
    'X-Gitlab-File-Name': name,
    'X-Gitlab-File-Path': path,
    'X-Gitlab-Last-Commit-Id': sha,
    'X-Gitlab-Ref': ref,
    'X-Gitlab-Size': String(size),
    'X-Gitlab-Execute-Filemode': 'false',
  };
}

function parseVariables(ctx: Ctx): PipelineRec['variables'] {
  const raw = ctx.params.variables;
  if (raw === undefined || raw === null || raw === '') return [];
  const list = Array.isArray(raw) ? raw : typeof raw === 'object' ? Object.values(raw as object) : null;
  if (!list) throw E.invalid('variables');
  const out: PipelineRec['variables'] = [];
  const badType: string[] = [];
  list.forEach((v, i) => {
    if (!v || typeof v !== 'object') throw E.invalid(`variables[${i}]`);
    const o = v as Record<string, unknown>;
    if (o.key === undefined || o.key === null || o.key === '') throw E.missing(`variables[${i}][key]`);
    const type = o.variable_type === undefined ? 'env_var' : String(o.variable_type);
    if (type !== 'env_var' && type !== 'file') badType.push(type);
    out.push({ key: String(o.key), value: o.value === undefined || o.value === null ? '' : String(o.value), variable_type: type });
  });
  if (badType.length > 0) throw E.validation({ variables: { variable_type: ['is not included in the list'] } });
  return out;
}

export function registerProjectRoutes(core: Core): void {
  // ---- import (registered before /projects/:id routes of the same shape) ----
  core.add('POST', '/projects/import', { auth: 'user' }, (ctx) => {
    const path = strParam(ctx, 'path');
    const file = ctx.files.file;
    const missing = [];
    if (!path) missing.push('path');
    if (!file) missing.push('file');
    if (missing.length > 0) throw E.missing(...missing);
    const over = (ctx.params.override_params ?? {}) as Record<string, unknown>;
    const p = createProject(ctx, {
      name: strParam(ctx, 'name') ?? (typeof over.name === 'string' ? over.name : undefined) ?? path,
      path,
      namespace: ctx.params.namespace,
      description: typeof over.description === 'string' ? over.description : null,
      visibility: typeof over.visibility === 'string' ? over.visibility : undefined,
    });
    const data = file!.data;
    const gz = data.length >= 2 && data[0] === 0x1f && data[1] === 0x8b;
    ctx.world.imports.set(p.id, { projectId: p.id, startedAt: Date.now(), fails: !gz, correlationId: `sbx${p.id.toString(36)}${data.length.toString(36)}` });
    p.importStatus = 'scheduled';
    sendJson(ctx, 201, importJson(ctx, p));
  });
  core.add('GET', '/projects/:id/import', { auth: 'user' }, (ctx) => sendJson(ctx, 200, importJson(ctx, findProject(ctx))));

  // ---- issues & notes ----
  core.add('GET', '/projects/:id/issues', { auth: 'public' }, (ctx) => {
    const p = findProject(ctx);
    const w = ctx.world;
    const n = w.issueCount(p.id);
    const state = strParam(ctx, 'state');
    let iids = Array.from({ length: n }, (_, i) => n - i);
    if (state === 'opened' || state === 'closed') iids = iids.filter((iid) => w.issue(p.id, iid)!.state === state);
    const page = offsetPage(ctx, iids.length, (off, lim) => iids.slice(off, off + lim));
    sendList(ctx, page.map((iid) => w.issue(p.id, iid)));
  });
  core.add('GET', '/projects/:id/issues/:issue_iid', { auth: 'public' }, (ctx) => {
    const p = findProject(ctx);
    const iid = intSeg(ctx, 'issue_iid');
    const issue = ctx.world.issue(p.id, iid);
    if (!issue) throw E.notFound('Issue');
    sendJson(ctx, 200, issue);
  });
  core.add('GET', '/projects/:id/issues/:issue_iid/notes', { auth: 'public' }, (ctx) => {
    const p = findProject(ctx);
    const iid = intSeg(ctx, 'issue_iid');
    const w = ctx.world;
    if (!w.issue(p.id, iid)) throw E.notFound('Issue');
    const n = w.noteCount(p.id, iid);
    const sort = strParam(ctx, 'sort') ?? 'desc';
    if (sort !== 'asc' && sort !== 'desc') throw E.notValid('sort');
    const page = offsetPage(ctx, n, (off, lim) => {
      const out = [];
      for (let k = off; k < off + lim; k++) out.push(w.note(p.id, iid, sort === 'asc' ? k + 1 : n - k));
      return out;
    });
    sendList(ctx, page);
  });

  // ---- repository ----
  core.add('GET', '/projects/:id/repository/files/:file_path', { auth: 'public' }, (ctx) => {
    const p = findProject(ctx);
    const ref = strParam(ctx, 'ref');
    const sha = requireRef(ctx, p, ref);
    const path = ctx.p.file_path!;
    const content = ctx.world.files(p.id, BRANCHES.includes(ref!) ? ref! : ctx.world.branchForSha(p.id, sha)).get(path);
    if (!content) throw E.notFound('File');
    const blob = ctx.world.fileBlob(content);
    const name = path.split('/').pop()!;
    const headers = fileHeaders(name, path, ref!, sha, blob, content.length);
    sendJson(
      ctx,
      200,
      {
        file_name: name,
        file_path: path,
        size: content.length,
        encoding: 'base64',
        content: content.toString('base64'),
        content_sha256: blob.sha256,
        ref,
        blob_id: blob.blobId,
        commit_id: sha,
        last_commit_id: sha,
        execute_filemode: false,
      },
      ctx.method === 'HEAD' ? headers : {},
    );
  });
  core.add('GET', '/projects/:id/repository/files/:file_path/raw', { auth: 'public', job: true }, (ctx) => {
    const p = findProject(ctx);
    const ref = strParam(ctx, 'ref') || 'main';
    const sha = requireRef(ctx, p, ref);
    const path = ctx.p.file_path!;
    const content = ctx.world.files(p.id, BRANCHES.includes(ref) ? ref : ctx.world.branchForSha(p.id, sha)).get(path);
    if (!content) throw E.notFound('File');
    const binary = path.endsWith('.png');
    const blob = ctx.world.fileBlob(content);
    sendText(ctx, 200, content, binary ? 'image/png' : 'text/plain; charset=utf-8', fileHeaders(path.split('/').pop()!, path, ref, sha, blob, content.length));
  });
  core.add('GET', '/projects/:id/repository/branches', { auth: 'public', job: true }, (ctx) => {
    const p = findProject(ctx);
    const search = strParam(ctx, 'search');
    const names = BRANCHES.filter((b) => !search || b.includes(search));
    const page = offsetPage(ctx, names.length, (off, lim) => names.slice(off, off + lim));
    sendList(ctx, page.map((b) => branchJson(ctx, p, b)));
  });
  core.add('GET', '/projects/:id/repository/branches/:branch', { auth: 'public' }, (ctx) => {
    const p = findProject(ctx);
    if (!BRANCHES.includes(ctx.p.branch!)) throw E.notFound('Branch');
    sendJson(ctx, 200, branchJson(ctx, p, ctx.p.branch!));
  });
  core.add('GET', '/projects/:id/branches/:branch/commits', { auth: 'public' }, (ctx) => {
    const p = findProject(ctx);
    const commits = ctx.world.branchCommits(p.id, ctx.p.branch!);
    if (!commits) throw E.notFound('Branch');
    const page = offsetPage(ctx, commits.length, (off, lim) => commits.slice(off, off + lim));
    sendList(ctx, page.map((c) => ctx.world.commitJson(p.id, c)));
  });
  core.add('GET', '/projects/:id/repository/commits', { auth: 'public' }, (ctx) => {
    const p = findProject(ctx);
    const ref = strParam(ctx, 'ref_name') || 'main';
    let commits: CommitRec[] | null = ctx.world.branchCommits(p.id, ref);
    if (!commits) {
      const sha = ctx.world.resolveRef(p.id, ref);
      if (!sha) throw E.notFound('Commit');
      const all = ctx.world.branchCommits(p.id, ctx.world.branchForSha(p.id, sha))!;
      commits = all.slice(all.findIndex((c) => c.id === sha));
    }
    const list = commits;
    const page = offsetPage(ctx, list.length, (off, lim) => list.slice(off, off + lim));
    sendList(ctx, page.map((c) => ctx.world.commitJson(p.id, c)));
  });
  core.add('GET', '/projects/:id/repository/commits/:sha', { auth: 'public', job: true }, (ctx) => {
    const p = findProject(ctx);
    const sha = ctx.world.resolveRef(p.id, ctx.p.sha!);
    const c = sha ? ctx.world.findCommit(p.id, sha) : null;
    if (!c) throw E.notFound('Commit');
    sendJson(ctx, 200, { ...ctx.world.commitJson(p.id, c), stats: { additions: 3, deletions: 1, total: 4 }, status: null, project_id: p.id, last_pipeline: null });
  });
  const tagJson = (ctx: Ctx, p: ProjectRec, t: { name: string; sha: string; message: string | null }) => {
    const c = ctx.world.findCommit(p.id, t.sha);
    const rel = ctx.world.projectReleases(p.id).find((r) => r.tagName === t.name);
    return {
      name: t.name,
      message: t.message,
      target: t.message ? ctx.world.fileBlob(Buffer.from(`tag ${t.name}`)).blobId : t.sha,
      commit: c ? ctx.world.commitJson(p.id, c) : null,
      release: rel ? { tag_name: rel.tagName, description: rel.description } : null,
      protected: false,
      created_at: c && t.message ? iso(c.createdAt + 60_000) : null,
    };
  };
  core.add('GET', '/projects/:id/repository/tags', { auth: 'public', job: true }, (ctx) => {
    const p = findProject(ctx);
    const tags = ctx.world.tags(p.id).reverse();
    const page = offsetPage(ctx, tags.length, (off, lim) => tags.slice(off, off + lim));
    sendList(ctx, page.map((t) => tagJson(ctx, p, t)));
  });
  core.add('GET', '/projects/:id/repository/tags/:tag', { auth: 'public' }, (ctx) => {
    const p = findProject(ctx);
    const t = ctx.world.tags(p.id).find((x) => x.name === ctx.p.tag);
    if (!t) throw E.notFound('Tag');
    sendJson(ctx, 200, tagJson(ctx, p, t));
  });

  // ---- pipelines & jobs ----
  core.add('GET', '/projects/:id/pipelines', { auth: 'public' }, (ctx) => {
    const p = findProject(ctx);
    const ids = ctx.world.pipelineIds(p.id);
    const n = ids.length;
    const page = offsetPage(ctx, n, (off, lim) => {
      const out = [];
      for (let k = off; k < off + lim; k++) out.push(ctx.world.pipeline(ids[n - 1 - k]!)!);
      return out;
    });
    sendList(ctx, page.map((pl) => pipelineJson(ctx, pl, false)));
  });
  const findPipeline = (ctx: Ctx, p: ProjectRec) => {
    const pl = ctx.world.pipeline(intSeg(ctx, 'pipeline_id'));
    if (!pl || pl.projectId !== p.id) throw E.notFound('Pipeline');
    return pl;
  };
  core.add('GET', '/projects/:id/pipelines/:pipeline_id', { auth: 'public' }, (ctx) => {
    const p = findProject(ctx);
    sendJson(ctx, 200, pipelineJson(ctx, findPipeline(ctx, p), true));
  });
  core.add('GET', '/projects/:id/pipelines/:pipeline_id/jobs', { auth: 'public' }, (ctx) => {
    const p = findProject(ctx);
    const pl = findPipeline(ctx, p);
    const jobs = pl.jobIds.map((j) => ctx.world.job(j)!);
    const page = offsetPage(ctx, jobs.length, (off, lim) => jobs.slice(off, off + lim));
    sendList(ctx, page.map((j) => jobJson(ctx, j)));
  });
  core.add('POST', '/projects/:id/pipeline', { auth: 'user' }, (ctx) => {
    const p = findProject(ctx);
    requireWrite(ctx, p);
    const ref = strParam(ctx, 'ref');
    if (!ref) throw E.missing('ref');
    const variables = parseVariables(ctx);
    const isBranchOrTag = BRANCHES.includes(ref) || ctx.world.tags(p.id).some((t) => t.name === ref);
    const sha = isBranchOrTag ? ctx.world.resolveRef(p.id, ref) : null;
    if (!sha) throw E.validation({ base: ['Reference not found'] });
    const pl = ctx.world.createPipeline(p.id, ref, sha, ctx.user!.id, variables);
    sendJson(ctx, 201, pipelineJson(ctx, pl, true));
  });
  core.add('GET', '/projects/:id/jobs', { auth: 'user' }, (ctx) => {
    const p = findProject(ctx);
    const ids = ctx.world.pipelineIds(p.id).flatMap((pid) => ctx.world.pipeline(pid)!.jobIds);
    const n = ids.length;
    const page = offsetPage(ctx, n, (off, lim) => {
      const out = [];
      for (let k = off; k < off + lim; k++) out.push(ctx.world.job(ids[n - 1 - k]!)!);
      return out;
    });
    sendList(ctx, page.map((j) => jobJson(ctx, j)));
  });
  const findJob = (ctx: Ctx, p: ProjectRec) => {
    const job = ctx.world.job(intSeg(ctx, 'job_id'));
    if (!job || job.projectId !== p.id) throw E.findNotFound();
    return job;
  };
  core.add('GET', '/projects/:id/jobs/:job_id', { auth: 'user' }, (ctx) => {
    const p = findProject(ctx);
    sendJson(ctx, 200, jobJson(ctx, findJob(ctx, p)));
  });
  core.add('GET', '/projects/:id/jobs/:job_id/artifacts', { auth: 'public', job: true }, (ctx) => {
    const p = findProject(ctx);
    const job = findJob(ctx, p);
    const pl = ctx.world.pipeline(job.pipelineId)!;
    if (!job.hasArtifacts || jobStatus(job, pl) !== 'success') throw E.notFound();
    const location = ctx.core.signObjectUrl(p.id, job.id);
    sendText(ctx, 302, `This resource has been moved temporarily to ${location}.`, 'text/plain', { Location: location });
  });
  core.add('GET', '/job', { auth: 'user', job: true }, (ctx) => {
    if (ctx.token?.kind !== 'job') throw E.unauthorized();
    const job = ctx.world.job(ctx.token.jobId!);
    if (!job) throw E.unauthorized();
    sendJson(ctx, 200, jobJson(ctx, job));
  });

  // ---- releases ----
  core.add('GET', '/projects/:id/releases', { auth: 'public', job: true }, (ctx) => {
    const p = findProject(ctx);
    const list = ctx.world.projectReleases(p.id);
    const page = offsetPage(ctx, list.length, (off, lim) => list.slice(off, off + lim));
    sendList(ctx, page.map((r) => releaseJson(ctx, p, r)));
  });
  core.add('GET', '/projects/:id/releases/:tag_name', { auth: 'public', job: true }, (ctx) => {
    const p = findProject(ctx);
    const r = ctx.world.projectReleases(p.id).find((x) => x.tagName === ctx.p.tag_name);
    if (!r) throw E.notFound();
    sendJson(ctx, 200, releaseJson(ctx, p, r));
  });
  core.add('POST', '/projects/:id/releases', { auth: 'user', job: true }, (ctx) => {
    const p = findProject(ctx);
    requireWrite(ctx, p);
    const tag = strParam(ctx, 'tag_name');
    if (!tag) throw E.missing('tag_name');
    const w = ctx.world;
    if (w.projectReleases(p.id).some((r) => r.tagName === tag)) throw new ApiError(409, { message: 'Release already exists' });
    let sha = w.tags(p.id).find((t) => t.name === tag)?.sha;
    if (!sha) {
      const ref = strParam(ctx, 'ref');
      if (!ref) throw new ApiError(422, { message: 'Ref is not specified' });
      const target = w.resolveRef(p.id, ref);
      if (!target) throw new ApiError(400, { message: `Target ${ref} is invalid` });
      sha = target;
      const extra = w.extraTags.get(p.id) ?? new Map<string, string>();
      extra.set(tag, sha);
      w.extraTags.set(p.id, extra);
    }
    const releasedAtText = strParam(ctx, 'released_at');
    const releasedAt = releasedAtText ? Date.parse(releasedAtText) : Date.now();
    if (Number.isNaN(releasedAt)) throw E.invalid('released_at');
    const rec = { tagName: tag, name: strParam(ctx, 'name') ?? tag, description: strParam(ctx, 'description') ?? '', createdAt: Date.now(), releasedAt, authorId: ctx.user!.id, sha };
    const list = w.releases.get(p.id) ?? [];
    list.push(rec);
    w.releases.set(p.id, list);
    sendJson(ctx, 201, releaseJson(ctx, p, rec));
  });

  // ---- sharing ----
  core.add('POST', '/projects/:id/share', { auth: 'user' }, (ctx) => {
    const p = findProject(ctx);
    requireWrite(ctx, p);
    const gid = intParam(ctx, 'group_id');
    const access = intParam(ctx, 'group_access');
    const missing = [];
    if (gid === undefined) missing.push('group_id');
    if (access === undefined) missing.push('group_access');
    if (missing.length > 0) throw E.missing(...missing);
    if (![10, 20, 30, 40, 50].includes(access!)) throw E.notValid('group_access');
    const g = ctx.world.groups[gid!];
    if (!g || !ctx.world.canReadGroup(ctx.user, g)) throw E.notFound('Group');
    const shares = ctx.world.getShares(p.id);
    if (shares.has(g.id)) throw new ApiError(409, { message: '409 Conflict' });
    const expires = strParam(ctx, 'expires_at') ?? null;
    shares.set(g.id, { groupId: g.id, access: access!, expiresAt: expires });
    sendJson(ctx, 201, { id: p.id * 1000 + g.id, project_id: p.id, group_id: g.id, group_access: access, expires_at: expires });
  });
  core.add('DELETE', '/projects/:id/share/:group_id', { auth: 'user' }, (ctx) => {
    const p = findProject(ctx);
    const gid = intSeg(ctx, 'group_id');
    requireWrite(ctx, p);
    const shares = ctx.world.getShares(p.id);
    if (!shares.delete(gid)) throw E.notFound('Group Link');
    sendJson(ctx, 204, null);
  });
}
