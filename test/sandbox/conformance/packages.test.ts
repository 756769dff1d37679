// A project's packages: the service's lib/api/project_packages.rb (`authorize_packages_access!` before
// every route, the list's `order_by`/`sort`/`package_type`/`package_name`/`status` parameters,
// `authorize_destroy_package!` before the package is looked up, `destroy_conditionally!` → 204),
// package_files.rb (`order_by` id/created_at/file_name), entities/package.rb (`_links.delete_api_path`
// only for whoever may destroy, `versions` on a single read), package_file.rb and
// app/finders/packages/packages_finder.rb (displayable statuses in lists, installable ones for reads).
// The sandbox's choices are in src/sandbox/README.md, "Packages".
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 10 });
const pairs = (json: Array<{ id: number; version: string }>) => json.map((p) => `${p.id}:${p.version}`);

describe('GET /projects/:id/packages[/:package_id[/package_files]]', () => {
  it('lists Package entities oldest first, filtered and ordered as asked, paged', async () => {
    const r = await c.call('/projects/1/packages?per_page=5');
    expect([r.status, r.headers['x-total']]).toEqual([200, '11']);
    expect(r.json[0]).toEqual({
      id: 1,
      name: 'app-bundle',
      version: '1.0.0',
      package_type: 'generic',
      status: 'default',
      _links: { web_path: '/acme/platform/icy-tiger-1/-/packages/1' },
      created_at: expect.stringMatching(/Z$/),
      last_downloaded_at: null,
      tags: [],
    });
    const admin = await c.call('/projects/1/packages?package_name=CLIENT&order_by=version&sort=desc', { as: 'admin' });
    expect(pairs(admin.json)).toEqual(['9:0.3.0', '8:0.2.0', '7:0.1.0']);
    expect(admin.json[0]._links.delete_api_path).toMatch(/\/api\/v4\/projects\/1\/packages\/9$/);
    const typed = await c.call('/projects/1/packages?package_type=maven&order_by=type', { as: 'user' });
    expect(pairs(typed.json)).toEqual(['10:1.0', '11:1.1']);
    expect((await c.call('/projects/1/packages?package_type=docker', { as: 'user' })).json).toEqual({
      error: 'package_type does not have a valid value',
    });
  });

  it('reads one package with its other versions, and its files', async () => {
    const one = await c.call('/projects/1/packages/2', { as: 'user' });
    expect(pairs(one.json.versions)).toEqual(['6:1.5.0', '5:1.4.0', '4:1.3.0', '3:1.2.0', '1:1.0.0']);
    const files = await c.call('/projects/1/packages/10/package_files?order_by=file_name&sort=desc', { as: 'user' });
    expect(files.json.map((f: { file_name: string }) => f.file_name)).toEqual(['maven-metadata.xml', 'core-1.0.pom', 'core-1.0.jar']);
    expect(Object.keys(files.json[0])).toEqual([
      'id',
      'package_id',
      'created_at',
      'file_name',
      'size',
      'file_md5',
      'file_sha1',
      'file_sha256',
    ]);
    expect((await c.call('/projects/1/packages/13', { as: 'user' })).json).toEqual({ message: '404 Not found' });
  });
});

describe('DELETE /projects/:id/packages/:package_id', () => {
  it('needs the maintainer role before the package is looked up, answers 204, and the package is gone', async () => {
    const add = await c.call('/projects/2/members', { as: 'admin', method: 'POST', json: { user_id: 5, access_level: 30 } });
    const developer = { as: 'admin' as const, headers: { Sudo: add.json.username as string } };
    expect((await c.call('/projects/2/packages/999', { ...developer, method: 'DELETE' })).json).toEqual({ message: '403 Forbidden' });
    expect((await c.call('/projects/2/packages/13', developer)).status).toBe(200);
    expect((await c.call('/projects/2/packages/13', { as: 'user', method: 'DELETE' })).status).toBe(204);
    expect((await c.call('/projects/2/packages/13', { as: 'user' })).json).toEqual({ message: '404 Not found' });
    expect(pairs((await c.call('/projects/2/packages?package_name=bundle', { as: 'user' })).json)[0]).toBe('14:1.1.0');
    expect(pairs((await c.call('/projects/2/packages?status=pending_destruction', { as: 'user' })).json)).toEqual(['13:1.0.0']);
  });
});
