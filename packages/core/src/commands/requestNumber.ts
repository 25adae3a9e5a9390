/**
 * The `n` of a request id `<instance>:<n>`: ids from one client's counter grow with `n`, so a
 * script can tell a later request about the same hold from an earlier one.
 */
export function requestNumber(request: string): number {
  return Number(request.slice(request.lastIndexOf(':') + 1));
}
