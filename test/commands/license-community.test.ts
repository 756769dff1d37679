// A Community Edition instance has no license endpoint (ee/lib/api/license.rb is EE only): the route is unknown.
import { expect, it } from 'vitest';
import { useSandbox } from './support.js';

const suite = useSandbox({ projects: 3, tier: 'free' });

it('license get on a Community Edition instance is a 404 (exit 5)', async () => {
  const r = await suite.run(['license', 'get']);
  expect(r).toEqual({
    exitCode: 5,
    stdout: '',
    stderr: 'svc: GET /license failed: 404 Not Found (the instance has no license endpoint: Community Edition has no license)\n',
  });
});
