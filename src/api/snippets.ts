import type { Readable } from 'node:stream';
import type { ApiResponse, HttpClient } from '../http/client.js';
import { apiPath } from '../http/encode.js';
import type { Snippet } from './types.js';

export interface CreateSnippetInput {
  title: string;
  fileName: string;
  content: string;
  visibility?: string;
  description?: string;
  /** The answer to a CAPTCHA the service asked for, with the spam log id it came with. */
  captcha?: { response: string; spamLogId: number };
}

export async function createSnippet(http: HttpClient, input: CreateSnippetInput): Promise<Snippet> {
  const headers: Record<string, string> = {};
  if (input.captcha) {
    headers['X-Service-Captcha-Response'] = input.captcha.response;
    headers['X-Service-Spam-Log-Id'] = String(input.captcha.spamLogId);
  }
  const json = {
    title: input.title,
    file_name: input.fileName,
    content: input.content,
    visibility: input.visibility,
    description: input.description,
  };
  return await http.record<Snippet>({ method: 'POST', path: '/snippets', json, headers });
}

/** A snippet with the files it holds (one, or several since the service has snippet repositories). */
export interface SnippetDetails extends Snippet {
  files?: Array<{ path: string; raw_url: string }>;
}

export async function getSnippet(http: HttpClient, id: string): Promise<SnippetDetails> {
  return await http.record<SnippetDetails>({ path: apiPath`/snippets/${id}` });
}

/** The content of the snippet's first file. */
export function streamSnippetContent(http: HttpClient, id: string): Promise<ApiResponse<Readable>> {
  return http.request<Readable>({ path: apiPath`/snippets/${id}/raw`, responseType: 'stream' });
}

export function streamSnippetFile(http: HttpClient, id: string, ref: string, filePath: string): Promise<ApiResponse<Readable>> {
  return http.request<Readable>({ path: apiPath`/snippets/${id}/files/${ref}/${filePath}/raw`, responseType: 'stream' });
}

/** One change to a snippet's files, as `PUT /snippets/:id` takes it in `files[]`. */
export interface SnippetFileChange {
  action: 'create' | 'update' | 'delete' | 'move';
  file_path: string;
  previous_path?: string;
  content?: string;
}

export interface SnippetUpdate {
  title?: string;
  description?: string;
  visibility?: string;
  files?: SnippetFileChange[];
}

export async function updateSnippet(http: HttpClient, id: string, update: SnippetUpdate): Promise<SnippetDetails> {
  return await http.record<SnippetDetails>({ method: 'PUT', path: apiPath`/snippets/${id}`, json: update });
}
