/**
 * The names a lock kind derives from a lock's name besides the lock's own key (keys beside it,
 * channels), described for tools that read Redis: the `deadbolt` command tells a lock from what
 * belongs to one by its kinds' layouts, and finds a lock by a key beside it. Each kind builds its
 * names from its layout, so the two cannot drift apart.
 *
 * @typeParam Prefixed - what each prefixed name is (`queue`, `channel`, ...)
 */
export interface KeyLayout<Prefixed extends string = string> {
  /**
   * The prefix of each name derived as `<prefix>:{name}` (`<prefix>:name` when the name has a
   * brace of its own; see `prefixedName`), some followed by `:<more>`: a request record, a fair
   * waiter's own channel. Nothing but derived names starts with `<prefix>:`.
   */
  readonly prefixes: Readonly<Record<Prefixed, string>>;
  /**
   * Whether `key` is a name derived after the lock's name rather than before it (`{name}:...`,
   * such as a read hold's lease key); absent when the kind derives none.
   */
  readonly isSuffixed?: (key: string) => boolean;
}
