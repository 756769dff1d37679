import type { Command } from 'commander';
import type { CommandSpec, LeafSpec } from '../cli/spec.js';
import type { Runtime } from '../runtime.js';

/** A noun's module: generated and hand-written verbs, or (for a command without verbs) its own wiring. */
export interface CommandModule {
  commands?: CommandSpec<unknown>[];
  /** A command without verbs (`svc api PATH`); its description is the registry's summary. */
  command?: LeafSpec<unknown>;
  register?: (parent: Command, runtime: Runtime, summary: string) => void;
  examples?: string[];
}

/**
 * What `src/commands/<noun>/noun.ts` declares: everything `svc --help` shows of the noun, without
 * loading its module (that file imports nothing but this type).
 */
export interface NounDeclaration {
  name: string;
  /** Other names the noun answers to (`merge-requests` for `mr`). */
  aliases?: string[];
  /** The one description of the noun, shown in `svc --help` and in the noun's own help. */
  summary: string;
  /** A command with no verbs of its own (`svc api PATH`): its module wires itself on the root. */
  leaf?: boolean;
  /**
   * Where the noun stands in `svc --help`: lowest first, ties by name. Nouns are ranked in tens, so a
   * new one goes between its neighbours (`schedules` is 50, `files` 60: a noun after schedules takes 55).
   */
  rank: number;
}

export interface NounEntry extends NounDeclaration {
  load: () => Promise<CommandModule>;
}

/** The nouns in the order `svc --help` lists them. */
export function inHelpOrder(entries: NounEntry[]): NounEntry[] {
  return [...entries].sort((a, b) => a.rank - b.rank || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
