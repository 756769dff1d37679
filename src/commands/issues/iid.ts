import { ApiError } from '../../http/api-error.js';

export const IID_ARGUMENT_HELP = "the issue's iid: its number within the project (#12 in the web UI), not its global id";

/** A 404 for an issue most often means a global id was given where the iid belongs. */
export async function withIidHint<T>(iid: number, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && !/project not found/i.test(error.message)) {
      throw new ApiError(
        error.status,
        error.body,
        `${error.message} (the path takes the issue's iid, its number within the project, not the global id; is #${iid} right?)`,
        error.exitCode,
      );
    }
    throw error;
  }
}
