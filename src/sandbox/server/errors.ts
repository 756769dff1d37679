// Error answers, in the two body shapes the service uses side by side:
// `{"message": …}` from its helpers and `{"error": …}` from parameter validation
// and the router (reference §0).
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    readonly contentType = 'application/json',
  ) {
    super(typeof body === 'string' ? body : JSON.stringify(body));
  }
}

export const E = {
  route404: () => new ApiError(404, { error: '404 Not Found' }),
  /** `not_found!('Thing')` */
  notFound: (what?: string) => new ApiError(404, { message: what ? `404 ${what} Not Found` : '404 Not Found' }),
  /** `.find(id)` raising RecordNotFound: note the lowercase "f". */
  findNotFound: () => new ApiError(404, { message: '404 Not found' }),
  unauthorized: () => new ApiError(401, { message: '401 Unauthorized' }),
  forbidden: (reason?: string) => new ApiError(403, { message: reason ? `403 Forbidden - ${reason}` : '403 Forbidden' }),
  badRequest: (message: string) => new ApiError(400, { message }),
  missing: (...names: string[]) => new ApiError(400, { error: names.map((n) => `${n} is missing`).join(', ') }),
  atLeastOne: (...names: string[]) =>
    new ApiError(400, { error: `${names.join(', ')} are missing, at least one parameter must be provided` }),
  invalid: (name: string) => new ApiError(400, { error: `${name} is invalid` }),
  notValid: (name: string) => new ApiError(400, { error: `${name} does not have a valid value` }),
  validation: (errors: Record<string, unknown>) => new ApiError(400, { message: errors }),
  insufficientScope: (scope: string) =>
    new ApiError(403, {
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope,
    }),
};
