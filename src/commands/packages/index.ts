import type { Resource } from '../generic/resource.js';
import { getVerb, listVerb } from '../generic/verbs.js';
import { writeVerb } from '../generic/write.js';
import { idParam, PROJECT, requiredTextParser } from '../shared/args.js';
import { CLEANUP, PACKAGE_TYPES } from './cleanup.js';

/** A project's packages: one record per name, type and version. */
const PACKAGES: Resource = {
  path: '/projects/:project/packages',
  id: 'package',
  params: {
    project: PROJECT,
    package: idParam('package id', 'package id (one version of a package; svc packages list shows them)'),
  },
  columns: ['id', 'name', 'version', 'package_type', 'created_at'],
  fields: ['id', 'name', 'version', 'package_type', 'status', 'created_at', 'last_downloaded_at'],
  called: (args) => `package ${String(args[1])} of project ${String(args[0])}`,
  tokens: ['job'],
  roles: { list: 'reporter', get: 'reporter', files: 'reporter', delete: 'maintainer' },
  confirmDelete: true,
};

export const commands = [
  listVerb(PACKAGES, {
    description: "List a project's packages, one row per version, oldest first unless --order-by/--sort say otherwise",
    filters: [
      { flags: '--type <type>', key: 'package_type', help: 'only packages of this type', choices: PACKAGE_TYPES },
      {
        flags: '--name <text>',
        key: 'package_name',
        help: 'only packages whose name contains the text',
        parse: requiredTextParser('--name'),
      },
      { flags: '--version <version>', key: 'package_version', help: 'only this version', parse: requiredTextParser('--version') },
      {
        flags: '--status <status>',
        key: 'status',
        help: 'only packages in this status (the service lists default, error and deprecated ones otherwise)',
        choices: ['default', 'hidden', 'processing', 'error', 'pending_destruction', 'deprecated'],
      },
      {
        flags: '--order-by <field>',
        key: 'order_by',
        help: 'order by created_at (default), name, version or type',
        choices: ['created_at', 'name', 'version', 'type'],
      },
      { flags: '--sort <direction>', key: 'sort', help: 'asc (the service’s default) or desc', choices: ['asc', 'desc'] },
    ],
    examples: [
      'svc packages list acme/platform/api --type npm',
      'svc packages list 42 --name app-bundle --order-by version --sort desc -o json',
    ],
  }),
  getVerb(PACKAGES, {
    description: 'Show one package version, with the other versions of the same package (-o json)',
    fields: ['id', 'name', 'version', 'package_type', 'status', 'created_at', 'last_downloaded_at', '_links.web_path'],
    examples: ['svc packages get acme/platform/api 7', 'svc packages get 42 7 -o json --fields versions'],
  }),
  listVerb(PACKAGES, {
    name: 'files',
    path: '/projects/:project/packages/:package/package_files',
    description: 'List the files of one package version: name, size, checksum',
    filters: [
      {
        flags: '--order-by <field>',
        key: 'order_by',
        help: 'order by id (default), created_at or file_name',
        choices: ['id', 'created_at', 'file_name'],
      },
      { flags: '--sort <direction>', key: 'sort', help: 'asc (the service’s default) or desc', choices: ['asc', 'desc'] },
    ],
    columns: ['id', 'file_name', 'size', 'created_at', 'file_sha256'],
    noun: 'package files',
    examples: ['svc packages files acme/platform/api 7', 'svc packages files 42 7 --order-by file_name -o tsv --fields file_name,size'],
  }),
  writeVerb(PACKAGES, {
    name: 'delete',
    description: 'Delete one package version with its files; asks first unless --yes',
    examples: ['svc packages delete acme/platform/api 7', 'svc packages delete 42 7 --yes'],
  }),
  CLEANUP,
];
