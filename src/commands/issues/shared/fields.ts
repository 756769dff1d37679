// The options issues are written with (create and update), apart from the verbs that send them.
import { InvalidArgumentError } from 'commander';
import { collect } from '../../../cli/parsers.js';
import type { OptionSpec } from '../../../cli/spec.js';
import { requiredTextParser } from '../../shared/args.js';
import { userIds } from '../../shared/users.js';

function dueDate(value: string): string {
  const [, y, m, d] = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim()) ?? [];
  const date = new Date(`${y}-${m}-${d}T00:00:00Z`);
  if (!y || Number.isNaN(date.getTime()) || date.getUTCDate() !== Number(d)) {
    throw new InvalidArgumentError('--due takes a date as YYYY-MM-DD');
  }
  return value.trim();
}

export const DESCRIPTION_OPTIONS: OptionSpec[] = [
  { flags: '--description <text>', help: 'description (Markdown)' },
  { flags: '--description-file <path>', help: 'read the description from a file (- for stdin)' },
];

const ASSIGNEE: OptionSpec = {
  flags: '--assignee <user>',
  key: 'assignee_ids',
  help: 'assignee: username or user id (repeatable; the free tier keeps one)',
  parse: collect,
  resolve: (http, users) => userIds(http, users as string[]),
};

const SHARED: OptionSpec[] = [
  { flags: '--milestone <title>', key: 'milestone', help: 'milestone title', parse: requiredTextParser('--milestone') },
  { flags: '--due <date>', key: 'due_date', help: 'due date, YYYY-MM-DD', parse: dueDate },
];

export const CREATE_BODY: OptionSpec[] = [
  { flags: '--title <title>', key: 'title', help: 'issue title', parse: requiredTextParser('--title'), required: true },
  {
    flags: '--labels <labels>',
    key: 'labels',
    help: 'labels, comma-separated (missing ones are created)',
    parse: requiredTextParser('--labels'),
  },
  ASSIGNEE,
  ...SHARED,
  { flags: '--confidential', key: 'confidential', help: 'visible only to project members with reporter access or more' },
];

export const UPDATE_BODY: OptionSpec[] = [
  { flags: '--title <title>', key: 'title', help: 'new title', parse: requiredTextParser('--title') },
  { flags: '--labels <labels>', key: 'labels', help: "replace every label by these (comma-separated; '' removes them all)" },
  {
    flags: '--add-labels <labels>',
    key: 'add_labels',
    help: 'add these labels (comma-separated)',
    parse: requiredTextParser('--add-labels'),
  },
  {
    flags: '--remove-labels <labels>',
    key: 'remove_labels',
    help: 'remove these labels (comma-separated)',
    parse: requiredTextParser('--remove-labels'),
  },
  ASSIGNEE,
  ...SHARED,
];
