// The rules the service's models apply to the paths and visibility of projects and groups.

/** The visibility levels a project takes. */
export const VISIBILITIES = ['public', 'internal', 'private'] as const;

const PATH_RE = /^[a-zA-Z0-9_][a-zA-Z0-9_.-]*$/;
const PATH_MSG = "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-', end in '.git' or end in '.atom'";

/** The model's message for a project or group path it would refuse, or null for a valid one. */
export function pathFormatError(path: string): string | null {
  return !PATH_RE.test(path) || path.endsWith('.git') || path.endsWith('.atom') ? PATH_MSG : null;
}
