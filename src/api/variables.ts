import type { HttpClient, Page } from '../http/client.js';
import { apiPath, type QueryParams } from '../http/encode.js';
import { ApiError } from '../http/api-error.js';

/** Where CI/CD variables live: a project, a group (id or full path) or the whole instance. */
export type VariableOwner = { kind: 'project' | 'group'; id: string } | { kind: 'instance' };

export interface Variable {
  key: string;
  /** null for a hidden variable: the service never gives its value back. */
  value: string | null;
  variable_type: 'env_var' | 'file';
  protected: boolean;
  masked: boolean;
  hidden?: boolean;
  raw: boolean;
  /** Absent on instance variables. */
  environment_scope?: string;
  description: string | null;
}

/** Attributes sent on create or update; values travel in the JSON body only, never in a URL. */
export interface VariableInput {
  key?: string;
  value?: string;
  variable_type?: string;
  protected?: boolean;
  masked?: boolean;
  masked_and_hidden?: boolean;
  raw?: boolean;
  environment_scope?: string;
  description?: string;
}

export function variablesPath(owner: VariableOwner): string {
  if (owner.kind === 'instance') return '/admin/ci/variables';
  return owner.kind === 'project' ? apiPath`/projects/${owner.id}/variables` : apiPath`/groups/${owner.id}/variables`;
}

function variablePath(owner: VariableOwner, key: string): string {
  return `${variablesPath(owner)}${apiPath`/${key}`}`;
}

/** `filter[environment_scope]` picks one among same-key variables (instance variables have no scope). */
function scopeFilter(owner: VariableOwner, scope: string | undefined): QueryParams {
  return owner.kind === 'instance' || scope === undefined ? {} : { filter: { environment_scope: scope } };
}

export function listVariables(http: HttpClient, owner: VariableOwner, perPage: number): AsyncGenerator<Page<Variable>> {
  return http.pages<Variable>(variablesPath(owner), { per_page: perPage });
}

export async function getVariable(http: HttpClient, owner: VariableOwner, key: string, scope?: string): Promise<Variable> {
  return await http.record<Variable>({ path: variablePath(owner, key), query: scopeFilter(owner, scope) });
}

/** The variable, or undefined when the service says this one does not exist (the owner itself does). */
export async function findVariable(http: HttpClient, owner: VariableOwner, key: string, scope?: string): Promise<Variable | undefined> {
  try {
    return await getVariable(http, owner, key, scope);
  } catch (error) {
    if (isVariableNotFound(error)) return undefined;
    throw error;
  }
}

/** `404 Variable Not Found` (or GroupVariable, InstanceVariable), as opposed to an unknown project or group. */
export function isVariableNotFound(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 404) return false;
  const message = (error.body as { message?: unknown } | null)?.message;
  return typeof message === 'string' && /Variable Not Found$/.test(message);
}

export async function createVariable(http: HttpClient, owner: VariableOwner, input: VariableInput): Promise<Variable> {
  return await http.record<Variable>({ method: 'POST', path: variablesPath(owner), json: { ...input } });
}

export async function updateVariable(
  http: HttpClient,
  owner: VariableOwner,
  key: string,
  scope: string | undefined,
  input: VariableInput,
): Promise<Variable> {
  const json = { ...input, ...scopeFilter(owner, scope) };
  return await http.record<Variable>({ method: 'PUT', path: variablePath(owner, key), json });
}

export async function deleteVariable(http: HttpClient, owner: VariableOwner, key: string, scope?: string): Promise<void> {
  await http.request({ method: 'DELETE', path: variablePath(owner, key), query: scopeFilter(owner, scope) });
}
