import type { HttpClient } from '../http/client.js';
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
