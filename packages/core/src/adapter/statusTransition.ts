/**
 * For each status of a class, the statuses it may change to: the class's whole life at a glance.
 * Internal to the adapter machinery.
 */
export type Transitions<Status extends string> = { readonly [From in Status]: readonly Status[] };

/**
 * Throws when `table` has no change from `from` to `to`. Only the class that keeps the status
 * changes it, and only where the change is legal: an illegal one is a bug in that class.
 *
 * @param owner - the class, named in the error
 */
export function checkTransition<Status extends string>(
  owner: string,
  table: Transitions<Status>,
  from: Status,
  to: Status,
): void {
  if (!table[from].includes(to)) throw new Error(`${owner}: illegal status transition from '${from}' to '${to}'`);
}
