import type { ListVerb } from '../generic/verbs.js';

export const VARIABLES: ListVerb = {
  name: 'variables',
  path: '/projects/:project/pipelines/:pipeline_id/variables',
  description: 'List the variables a pipeline was started with (from create, trigger or a schedule); developers and up',
  columns: ['key', 'value', 'variable_type'],
  examples: ['svc pipeline variables acme/platform/api 1042', 'svc pipeline variables 42 1042 -o json'],
};
