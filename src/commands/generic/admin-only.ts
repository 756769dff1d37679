import { ApiError } from '../../http/api-error.js';

/**
 * A plain 403 from an administrators-only endpoint says who may do it. A 403 that gives its own reason
 * (`The API initiating user cannot be blocked by the API`) is left as the service said it.
 */
export async function withAdminAccess<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const body = error instanceof ApiError ? (error.body as { message?: unknown } | null) : null;
    if (error instanceof ApiError && error.status === 403 && body?.message === '403 Forbidden') {
      throw new ApiError(403, error.body, `${error.message} (this needs administrator access)`, error.exitCode);
    }
    throw error;
  }
}
