import { getVerb, listVerb } from '../generic/verbs.js';
import { USER } from './shared/resource.js';

export const GET = getVerb(USER, {
  description: 'Show one user (administrators also see the email, admin and external flags)',
  examples: ['svc users get jdoe', 'svc users get 42 -o json'],
});

export const ME = getVerb(USER, {
  name: 'me',
  path: '/user',
  description: 'Show the user the token belongs to',
  requireToken: true,
  examples: ['svc users me', 'svc users me -o json --fields id,username,is_admin'],
});

export const PROJECTS = listVerb(USER, {
  name: 'projects',
  path: '/users/:user/projects',
  description: "List a user's personal projects you can see, newest first",
  columns: ['id', 'path_with_namespace', 'visibility', 'last_activity_at'],
  examples: ['svc users projects jdoe', 'svc users projects 42 --all -o ndjson --fields id,path_with_namespace'],
});
