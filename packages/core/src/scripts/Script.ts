import { createHash } from 'node:crypto';

/** A Lua script known to the registry: its name, source and SHA1 digest for EVALSHA. */
export interface Script {
  /** A unique name, `<package>/<script>`, used in error messages. */
  readonly name: string;
  /** The Lua source. */
  readonly source: string;
  /** The SHA1 of the source, as `SCRIPT LOAD` would report it. */
  readonly sha: string;
}

const registry = new Map<string, Script>();

/**
 * Registers a Lua script. Every lock kind defines its scripts through this one registry, each
 * from its own `.lua` file whose header states KEYS, ARGV and the reply. Registering the same
 * name twice with different source is a programming error.
 */
export function defineScript(name: string, source: string): Script {
  const existing = registry.get(name);
  if (existing) {
    if (existing.source !== source) throw new Error(`Script "${name}" is already defined with other source`);
    return existing;
  }
  const script: Script = Object.freeze({ name, source, sha: createHash('sha1').update(source).digest('hex') });
  registry.set(name, script);
  return script;
}
