import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/index.js';
import { req, waitFor } from './helpers.js';

let sb: Sandbox;

beforeAll(async () => {
  sb = await startSandbox({ projects: 30 });
});
afterAll(async () => {
  await sb.close();
});

const api = (p: string) => `/api/v4${p}`;

describe('renamed projects', () => {
  it('redirects GET on the old path with 301, absolute Location on the numeric id, query kept, plain-text body', async () => {
    const { projectId, oldFullPath } = sb.state.fixtures.renamed[0]!;
    const r = await req(sb.url, api(`/projects/${encodeURIComponent(oldFullPath)}/issues?state=opened`));
    expect(r.status).toBe(301);
    const loc = `${sb.url}/api/v4/projects/${projectId}/issues?state=opened`;
    expect(r.headers.location).toBe(loc);
    expect(r.text).toBe(`This resource has been moved permanently to ${loc}`);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    const follow = await req(sb.url, new URL(loc).pathname + new URL(loc).search);
    expect(follow.status).toBe(200);
  });

  it('redirects HEAD too', async () => {
    const { oldFullPath } = sb.state.fixtures.renamed[0]!;
    const r = await req(sb.url, api(`/projects/${encodeURIComponent(oldFullPath)}`), { method: 'HEAD' });
    expect(r.status).toBe(301);
  });

  it('answers other methods on the old path with 405', async () => {
    const { oldFullPath } = sb.state.fixtures.renamed[0]!;
    const r = await req(sb.url, api(`/projects/${encodeURIComponent(oldFullPath)}/pipeline`), {
      method: 'POST',
      token: sb.tokens.admin,
      json: { ref: 'main' },
    });
    expect(r.status).toBe(405);
    expect(r.json).toEqual({ message: 'Non GET methods are not allowed for moved projects' });
  });

  it('does not reveal a renamed private project to anonymous callers', async () => {
    const priv = sb.state.fixtures.renamed.find((r) => r.projectId === 2)!;
    const r = await req(sb.url, api(`/projects/${encodeURIComponent(priv.oldFullPath)}`));
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Project Not Found' });
  });
});

describe('project creation', () => {
  it('creates a project with 201 from a JSON body', async () => {
    const r = await req(sb.url, api('/projects'), {
      method: 'POST',
      token: sb.tokens.user,
      json: { name: 'My New App', description: 'd' },
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      name: 'My New App',
      path: 'my-new-app',
      path_with_namespace: 'jdoe/my-new-app',
      description: 'd',
      visibility: 'private',
    });
    const get = await req(sb.url, api(`/projects/${encodeURIComponent('jdoe/my-new-app')}`), { token: sb.tokens.user });
    expect(get.json.id).toBe(r.json.id);
  });

  it('creates from a form body and from the query string', async () => {
    const a = await req(sb.url, api('/projects'), { method: 'POST', token: sb.tokens.user, form: 'name=Form+App&visibility=public' });
    expect(a.status).toBe(201);
    expect(a.json.name).toBe('Form App');
    const b = await req(sb.url, api('/projects?path=query-app'), { method: 'POST', token: sb.tokens.user });
    expect(b.status).toBe(201);
    expect(b.json.path).toBe('query-app');
  });

  it('answers 400 when neither name nor path is given', async () => {
    const r = await req(sb.url, api('/projects'), { method: 'POST', token: sb.tokens.user, json: {} });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'name, path are missing, at least one parameter must be provided' });
  });

  it('answers a taken name and path with the 400 validation object', async () => {
    await req(sb.url, api('/projects'), { method: 'POST', token: sb.tokens.user, json: { name: 'Dup' } });
    const r = await req(sb.url, api('/projects'), { method: 'POST', token: sb.tokens.user, json: { name: 'Dup' } });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ message: { name: ['has already been taken'], path: ['has already been taken'] } });
  });

  it('places new projects by storage weight', async () => {
    const put = await req(sb.url, api('/application/settings'), {
      method: 'PUT',
      token: sb.tokens.admin,
      form: 'repository_storages_weighted[default]=0&repository_storages_weighted[storage2]=100',
    });
    expect(put.status).toBe(200);
    expect(put.json.repository_storages_weighted).toEqual({ default: 0, storage2: 100 });
    const r = await req(sb.url, api('/projects'), { method: 'POST', token: sb.tokens.admin, json: { name: 'Weighted' } });
    expect(r.json.repository_storage).toBe('storage2');
    const back = await req(sb.url, api('/application/settings'), {
      method: 'PUT',
      token: sb.tokens.admin,
      json: { repository_storages_weighted: { default: 100, storage2: 0 } },
    });
    expect(back.json.repository_storages_weighted).toEqual({ default: 100, storage2: 0 });
  });

  it('rejects an unknown storage in the weights', async () => {
    const r = await req(sb.url, api('/application/settings'), {
      method: 'PUT',
      token: sb.tokens.admin,
      json: { repository_storages_weighted: { nope: 5 } },
    });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ message: { repository_storages_weighted: ["can't include: nope"] } });
  });
});

describe('issues, notes and sharing', () => {
  it('fetches an issue by iid; its global id differs', async () => {
    const r = await req(sb.url, api('/projects/1/issues/2'));
    expect(r.status).toBe(200);
    expect(r.json.iid).toBe(2);
    expect(r.json.id).not.toBe(2);
    expect(r.json.project_id).toBe(1);
  });

  it('answers an unknown issue with the 404 of .find and a non-integer iid with 400', async () => {
    const r = await req(sb.url, api('/projects/1/issues/999'));
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Not found' });
    const bad = await req(sb.url, api('/projects/1/issues/abc'));
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: 'issue_iid is invalid' });
  });

  it('unshares a project with 204, then 404 when not shared', async () => {
    const p = await req(sb.url, api('/projects/1'), { token: sb.tokens.admin });
    const gid = p.json.shared_with_groups[0].group_id;
    const r = await req(sb.url, api(`/projects/1/share/${gid}`), { method: 'DELETE', token: sb.tokens.admin });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    const again = await req(sb.url, api(`/projects/1/share/${gid}`), { method: 'DELETE', token: sb.tokens.admin });
    expect(again.status).toBe(404);
    expect(again.json).toEqual({ message: '404 Group Link Not Found' });
  });

  it('lists namespaces and groups', async () => {
    const ns = await req(sb.url, api('/namespaces?per_page=5'), { token: sb.tokens.user });
    expect(ns.status).toBe(200);
    expect(ns.json.some((n: { kind: string; path: string }) => n.kind === 'user' && n.path === 'jdoe')).toBe(true);
    const groups = await req(sb.url, api('/groups'), { token: sb.tokens.admin });
    expect(groups.json.some((g: { full_path: string }) => g.full_path === 'acme/platform')).toBe(true);
  });
});

describe('repository', () => {
  it('requires ref for a file', async () => {
    const r = await req(sb.url, api('/projects/1/repository/files/README.md'));
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'ref is missing' });
  });

  it('serves a binary file as base64', async () => {
    const r = await req(sb.url, api('/projects/1/repository/files/assets%2Flogo.png?ref=main'));
    const bytes = Buffer.from(r.json.content, 'base64');
    expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    expect(r.json.size).toBe(bytes.length);
  });

  it('answers an unknown file with 404 File Not Found', async () => {
    const r = await req(sb.url, api('/projects/1/repository/files/missing.txt?ref=main'));
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 File Not Found' });
  });

  it('answers an unknown tag and branch with their 404s', async () => {
    expect((await req(sb.url, api('/projects/1/repository/tags/v9'))).json).toEqual({ message: '404 Tag Not Found' });
    expect((await req(sb.url, api('/projects/1/branches/nope/commits'))).json).toEqual({ message: '404 Branch Not Found' });
  });
});

describe('pipelines', () => {
  it('creates a pipeline (201) that progresses created → pending → running → success', async () => {
    const r = await req(sb.url, api('/projects/2/pipeline'), {
      method: 'POST',
      token: sb.tokens.user,
      json: { ref: 'main', variables: [{ key: 'A', value: '1' }] },
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ ref: 'main', status: 'created', source: 'api', project_id: 2 });
    expect(r.json.detailed_status.favicon).toBe('/assets/ci_favicons/favicon_status_created.png');
    const seen: string[] = [];
    await waitFor(
      async () => {
        const g = await req(sb.url, api(`/projects/2/pipelines/${r.json.id}`), { token: sb.tokens.user });
        if (seen.at(-1) !== g.json.status) seen.push(g.json.status);
        return g.json.status === 'success';
      },
      5000,
      15,
    );
    expect(seen.at(-1)).toBe('success');
    const order = ['created', 'pending', 'running', 'success'];
    const idx = seen.map((x) => order.indexOf(x));
    expect(idx.every((v, i) => v >= 0 && (i === 0 || v > idx[i - 1]!))).toBe(true);
  });

  it('fails a pipeline when SANDBOX_PIPELINE_RESULT=failed', async () => {
    const r = await req(sb.url, api('/projects/2/pipeline'), {
      method: 'POST',
      token: sb.tokens.user,
      json: { ref: 'main', variables: [{ key: 'SANDBOX_PIPELINE_RESULT', value: 'failed' }] },
    });
    const end = await waitFor(
      async () => {
        const g = await req(sb.url, api(`/projects/2/pipelines/${r.json.id}`), { token: sb.tokens.user });
        return ['success', 'failed'].includes(g.json.status) ? g.json.status : null;
      },
      5000,
      20,
    );
    expect(end).toBe('failed');
  });

  it('requires ref and rejects an unknown ref', async () => {
    const missing = await req(sb.url, api('/projects/2/pipeline'), { method: 'POST', token: sb.tokens.user, json: {} });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({ error: 'ref is missing' });
    const unknown = await req(sb.url, api('/projects/2/pipeline'), { method: 'POST', token: sb.tokens.user, json: { ref: 'nope' } });
    expect(unknown.status).toBe(400);
    expect(unknown.json).toEqual({ message: { base: ['Reference not found'] } });
  });

  it('answers a bad variable type with a nested validation object', async () => {
    const r = await req(sb.url, api('/projects/2/pipeline'), {
      method: 'POST',
      token: sb.tokens.user,
      json: { ref: 'main', variables: [{ key: 'A', value: '1', variable_type: 'weird' }] },
    });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ message: { variables: { variable_type: ['is not included in the list'] } } });
  });

  it('answers a pipeline of another project with 404', async () => {
    const r = await req(sb.url, api('/projects/1/pipelines/4'), { token: sb.tokens.admin });
    expect(r.status).toBe(404);
    expect(r.json).toEqual({ message: '404 Not found' });
  });
});

describe('artifacts', () => {
  it('redirects with 302 to the object store, which serves a zip without needing credentials', async () => {
    const { jobId, jobProjectId } = sb.state.fixtures;
    const r = await req(sb.url, api(`/projects/${jobProjectId}/jobs/${jobId}/artifacts`), { headers: { 'JOB-TOKEN': sb.tokens.job } });
    expect(r.status).toBe(302);
    const loc = new URL(r.headers.location!);
    expect(loc.origin).toBe(sb.objectsUrl);
    expect(loc.hostname).not.toBe(new URL(sb.url).hostname);
    const obj = await req(loc.origin, loc.pathname + loc.search);
    expect(obj.status).toBe(200);
    expect(obj.headers['content-type']).toBe('application/zip');
    expect(Number(obj.headers['content-length'])).toBe(obj.buf.length);
    expect(obj.buf.length).toBeGreaterThanOrEqual(64 * 1024);
    expect(obj.buf.readUInt32LE(0)).toBe(0x04034b50);
    const rec = sb
      .requests()
      .filter((x) => x.origin === 'objects')
      .at(-1)!;
    expect(rec.headers).not.toHaveProperty('job-token');
    expect(rec.headers).not.toHaveProperty('private-token');
  });

  it('refuses a tampered object URL', async () => {
    const r = await req(sb.url, api('/projects/2/jobs/7/artifacts'), { token: sb.tokens.user });
    const loc = new URL(r.headers.location!);
    const bad = await req(loc.origin, loc.pathname + loc.search.replace(/Signature=[0-9a-f]+/, 'Signature=deadbeef'));
    expect(bad.status).toBe(403);
  });
});

describe('releases', () => {
  it('creates a release (201), then 409 when it exists', async () => {
    const r = await req(sb.url, api('/projects/2/releases'), {
      method: 'POST',
      headers: { 'JOB-TOKEN': sb.tokens.job, 'Content-Type': 'application/json' },
      body: JSON.stringify({ tag_name: 'v3.0.0', ref: 'main', name: 'Three' }),
    });
    expect(r.status).toBe(201);
    expect(r.json.tag_name).toBe('v3.0.0');
    const again = await req(sb.url, api('/projects/2/releases'), {
      method: 'POST',
      token: sb.tokens.user,
      json: { tag_name: 'v3.0.0', ref: 'main' },
    });
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ message: 'Release already exists' });
  });

  it('answers 422 when the tag does not exist and no ref is given', async () => {
    const r = await req(sb.url, api('/projects/2/releases'), { method: 'POST', token: sb.tokens.user, json: { tag_name: 'v4.0.0' } });
    expect(r.status).toBe(422);
    expect(r.json).toEqual({ message: 'Ref is not specified' });
  });
});

describe('snippets and spam', () => {
  it('creates a snippet with 201 and fetches it', async () => {
    const r = await req(sb.url, api('/snippets'), {
      method: 'POST',
      token: sb.tokens.user,
      json: { title: 'ok', file_name: 'a.rb', content: 'puts 1', visibility: 'private' },
    });
    expect(r.status).toBe(201);
    const g = await req(sb.url, api(`/snippets/${r.json.id}`), { token: sb.tokens.user });
    expect(g.json.title).toBe('ok');
    const anon = await req(sb.url, api(`/snippets/${r.json.id}`));
    expect(anon.json).toEqual({ message: '404 Snippet Not Found' });
  });

  it('discards spam with 400 when no CAPTCHA is configured', async () => {
    const r = await req(sb.url, api('/snippets'), {
      method: 'POST',
      token: sb.tokens.user,
      json: { title: 'deal', file_name: 'a.txt', content: 'Buy CHEAP PILLS now', visibility: 'public' },
    });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ message: { error: 'Your snippet has been recognized as spam and has been discarded.' } });
  });

  it('asks for a CAPTCHA with 409 and accepts the resubmission', async () => {
    const s = await startSandbox({ projects: 2, captcha: true });
    try {
      const body = { title: 'deal', file_name: 'a.txt', content: 'cheap pills', visibility: 'public' };
      const r = await req(s.url, api('/snippets'), { method: 'POST', token: s.tokens.user, json: body });
      expect(r.status).toBe(409);
      expect(r.json.needs_captcha_response).toBe(true);
      expect(Number.isInteger(r.json.spam_log_id)).toBe(true);
      expect(typeof r.json.captcha_site_key).toBe('string');
      expect(r.json.message.error).toMatch(/recognized as spam/);
      const wrong = await req(s.url, api('/snippets'), {
        method: 'POST',
        token: s.tokens.user,
        json: body,
        headers: { 'X-Service-Captcha-Response': 'x', 'X-Service-Spam-Log-Id': '999' },
      });
      expect(wrong.status).toBe(409);
      const ok = await req(s.url, api('/snippets'), {
        method: 'POST',
        token: s.tokens.user,
        json: body,
        headers: { 'X-Service-Captcha-Response': 'solved', 'X-Service-Spam-Log-Id': String(r.json.spam_log_id) },
      });
      expect(ok.status).toBe(201);
    } finally {
      await s.close();
    }
  });
});

describe('project import', () => {
  function multipart(fields: Record<string, string>, file: Buffer): { body: Buffer; type: string } {
    const b = 'sbxBoundary42';
    const parts: Buffer[] = [];
    for (const [k, v] of Object.entries(fields))
      parts.push(Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
    parts.push(
      Buffer.from(
        `--${b}\r\nContent-Disposition: form-data; name="file"; filename="export.tar.gz"\r\nContent-Type: application/gzip\r\n\r\n`,
      ),
      file,
      Buffer.from(`\r\n--${b}--\r\n`),
    );
    return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${b}` };
  }

  it('imports a gzip archive: 201 scheduled, then finished; override_params apply', async () => {
    const m = multipart({ path: 'imported', namespace: 'acme', 'override_params[visibility]': 'public' }, gzipSync(Buffer.from('tar')));
    const r = await req(sb.url, api('/projects/import'), {
      method: 'POST',
      token: sb.tokens.admin,
      body: m.body,
      headers: { 'Content-Type': m.type },
    });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ path_with_namespace: 'acme/imported', import_status: 'scheduled', import_error: null });
    const end = await waitFor(
      async () => {
        const g = await req(sb.url, api(`/projects/${r.json.id}/import`), { token: sb.tokens.admin });
        return ['finished', 'failed'].includes(g.json.import_status) ? g.json : null;
      },
      5000,
      20,
    );
    expect(end.import_status).toBe('finished');
    expect((await req(sb.url, api(`/projects/${r.json.id}`))).json.visibility).toBe('public');
  });

  it('fails an import whose archive is not gzip', async () => {
    const m = multipart({ path: 'broken-import' }, Buffer.from('not a gzip'));
    const r = await req(sb.url, api('/projects/import'), {
      method: 'POST',
      token: sb.tokens.user,
      body: m.body,
      headers: { 'Content-Type': m.type },
    });
    expect(r.status).toBe(201);
    const end = await waitFor(
      async () => {
        const g = await req(sb.url, api(`/projects/${r.json.id}/import`), { token: sb.tokens.user });
        return ['finished', 'failed'].includes(g.json.import_status) ? g.json : null;
      },
      5000,
      20,
    );
    expect(end.import_status).toBe('failed');
    expect(typeof end.import_error).toBe('string');
  });

  it('requires path and file', async () => {
    const r = await req(sb.url, api('/projects/import'), { method: 'POST', token: sb.tokens.user, form: 'namespace=acme' });
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ error: 'path is missing, file is missing' });
  });
});
