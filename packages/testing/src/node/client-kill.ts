import { sendCommand, type RedisAddress } from '../resp/connection.js';
import { asInteger, asText } from '../resp/text.js';

/**
 * Kills the connections named `name` by id. CLIENT KILL has no name filter, so the names come
 * from CLIENT LIST; killing by ID then hits exactly those connections and reports each kill.
 */
export async function killClientsByName(address: RedisAddress, name: string): Promise<number> {
  const list = asText(await sendCommand(address, ['CLIENT', 'LIST']));
  const ids = list
    .split('\n')
    .map((line) => parseClientLine(line.trim()))
    .filter((fields) => fields.get('name') === name)
    .map((fields) => fields.get('id'))
    .filter((id): id is string => id !== undefined);
  let killed = 0;
  for (const id of ids) {
    // 0 when the connection closed between LIST and KILL; that one is gone anyway.
    killed += asInteger(await sendCommand(address, ['CLIENT', 'KILL', 'ID', id]));
  }
  return killed;
}

/** Splits `id=7 addr=... name=x ...` into fields; no value here contains a space. */
function parseClientLine(line: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const pair of line.split(' ')) {
    const eq = pair.indexOf('=');
    if (eq > 0) fields.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return fields;
}
