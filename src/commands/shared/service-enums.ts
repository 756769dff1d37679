// Values the service accepts for filters that more than one noun offers.

/** The service's pipeline statuses, which are also the job statuses (reference endpoints §3). */
export const PIPELINE_STATUSES = [
  'created',
  'waiting_for_resource',
  'preparing',
  'waiting_for_callback',
  'pending',
  'running',
  'success',
  'failed',
  'canceling',
  'canceled',
  'skipped',
  'manual',
  'scheduled',
] as const;

export const VISIBILITIES = ['public', 'internal', 'private'];
