// The generic package registry: lib/api/generic_packages.rb (`PUT`/`GET …/packages/generic/:package_name/
// :package_version/:file_name`; upload 201 `{"message":"201 Created"}`; the file back as application/octet-stream).
import { describe, expect, it } from 'vitest';
import { useSandbox } from './setup.js';

const c = useSandbox({ projects: 2 });
const url = (file: string) => `${c.sb.url}/api/v4/projects/2/packages/generic/tool/2.1.0/${file}`;

describe('generic packages', () => {
  it('keeps the uploaded bytes and gives them back with their length', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 10, 13]);
    const headers = { 'PRIVATE-TOKEN': c.sb.tokens.admin, 'content-type': 'application/octet-stream' };
    const put = await fetch(url('tool.bin'), { method: 'PUT', headers, body: bytes });
    expect([put.status, await put.json()]).toEqual([201, { message: '201 Created' }]);
    const got = await fetch(url('tool.bin'), { headers: { 'PRIVATE-TOKEN': c.sb.tokens.admin } });
    expect([got.status, got.headers.get('content-type'), got.headers.get('content-length')]).toEqual([
      200,
      'application/octet-stream',
      String(bytes.length),
    ]);
    expect(Buffer.from(await got.arrayBuffer())).toEqual(bytes);
  });

  it('a file never uploaded is 404 Package Not Found; a file name with a slash is refused', async () => {
    const missing = await c.call('/projects/2/packages/generic/tool/2.1.0/none.bin', { as: 'admin' });
    expect([missing.status, missing.json]).toEqual([404, { message: '404 Package Not Found' }]);
    const bad = await fetch(url('a%2Fb'), {
      method: 'PUT',
      headers: { 'PRIVATE-TOKEN': c.sb.tokens.admin, 'content-type': 'application/octet-stream' },
      body: 'x',
    });
    expect([bad.status, await bad.json()]).toEqual([400, { error: 'file_name is invalid' }]);
  });
});
