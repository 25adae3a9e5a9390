import { RespConnection, sendCommand, type RespConnectionOptions } from '../resp/connection.js';
import type { RespArgument, RespValue } from '../resp/protocol.js';
import { killClientsByName } from './client-kill.js';

/** What every kind of node reaches the same way: over the network, by host and port. */
export abstract class NodeAccess {
  abstract readonly host: string;
  abstract readonly port: number;

  command(...args: RespArgument[]): Promise<RespValue> {
    return sendCommand(this, args);
  }

  connect(options?: RespConnectionOptions): Promise<RespConnection> {
    return RespConnection.connect(this, options);
  }

  killClientByName(name: string): Promise<number> {
    return killClientsByName(this, name);
  }
}
