import type { CommandSpec } from '../../cli/spec.js';
import { withRole } from './record-write.js';

/** The same verb, naming the role the service asks for when it refuses (403). */
export function namingRole<O>(role: string, spec: CommandSpec<O>): CommandSpec<O> {
  return { ...spec, run: (ctx, args, opts) => withRole(role, () => spec.run(ctx, args, opts)) };
}
