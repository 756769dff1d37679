import { DIFF } from './diff.js';
import { LIST } from './list.js';
import { MERGE } from './merge.js';
import { REBASE } from './rebase.js';
import { APPROVAL_STATE, APPROVALS, APPROVE, COMMENT, NOTES, registerNoteVerbs, UNAPPROVE } from './review.js';
import { CLOSE, CREATE, GET, REOPEN, UPDATE } from './write.js';

export const commands = [
  LIST,
  GET,
  CREATE,
  UPDATE,
  CLOSE,
  REOPEN,
  MERGE,
  REBASE,
  APPROVE,
  UNAPPROVE,
  APPROVALS,
  APPROVAL_STATE,
  COMMENT,
  NOTES,
  DIFF,
];

export const register = registerNoteVerbs;

export const examples = [
  'svc mr list acme/platform/api --state opened',
  'svc mr create acme/platform/api --source feature/login --target main --title "Add login"',
  'svc mr merge acme/platform/api 12 --auto --wait',
];
