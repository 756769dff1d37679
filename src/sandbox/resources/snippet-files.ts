// The files of a snippet, personal or a project's, and the `files[]` actions of an update
// (create, update, delete, move) with the service's texts (reference endpoints §14).
import type { Ctx } from '../server/context.js';
import { ApiError, E } from '../server/errors.js';
import { strParam } from '../server/params.js';

export const FILE_ACTIONS = ['create', 'update', 'delete', 'move'] as const;

export interface SnippetFile {
  path: string;
  content: string;
}

const fileError = (text: string) => new ApiError(400, { message: { error: text } });

/**
 * The files after an update, or nothing when it changes none: `files[]` actions, or the single-file
 * `content` and `file_name` (refused for a snippet with several files).
 */
export function updatedFileList(ctx: Ctx, current: SnippetFile[]): SnippetFile[] | undefined {
  const content = strParam(ctx, 'content');
  const fileName = strParam(ctx, 'file_name');
  if (ctx.params.files === undefined) {
    if (content === undefined && fileName === undefined) return undefined;
    if (current.length > 1) throw fileError('To update Snippets with multiple files, you must use the `files` parameter');
    return [{ path: fileName ?? current[0]!.path, content: content ?? current[0]!.content }];
  }
  if (!Array.isArray(ctx.params.files)) throw E.invalid('files');
  const files = current.map((f) => ({ ...f }));
  (ctx.params.files as unknown[]).forEach((raw, i) => {
    const change = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const action = change.action === undefined ? undefined : String(change.action);
    if (action === undefined) throw E.missing(`files[${i}][action]`);
    if (!(FILE_ACTIONS as readonly string[]).includes(action)) throw E.notValid(`files[${i}][action]`);
    applyFileAction(files, action, change);
  });
  if (files.length === 0) throw fileError('Snippet files can not be empty');
  return files;
}

function applyFileAction(files: SnippetFile[], action: string, change: Record<string, unknown>): void {
  const path = change.file_path === undefined ? '' : String(change.file_path);
  const content = change.content === undefined ? undefined : String(change.content);
  const at = (p: string) => files.findIndex((f) => f.path === p);
  const source = action === 'move' ? String(change.previous_path ?? '') : path;
  if (!path) throw fileError('File path can not be empty');
  if (action !== 'create' && at(source) < 0) throw fileError(`A file with the name ${source} does not exist`);
  if ((action === 'create' || (action === 'move' && path !== source)) && at(path) >= 0) {
    throw fileError(`A file with the name ${path} already exists`);
  }
  if (action === 'create') files.push({ path, content: content ?? '' });
  else if (action === 'delete') files.splice(at(path), 1);
  else {
    const file = files[at(source)]!;
    files[at(source)] = { path, content: content ?? file.content };
  }
}
