import net from 'node:net';
import type { RedisAddress } from '../resp/connection.js';
import type { ProxyDirection } from './controls.js';
import { DelayQueue, type Delay } from './delay.js';
import { commandName, RespFrameScanner, UnframedStreamError, type ScanResult } from './frames.js';
import type { RequestRule } from './request-rule.js';

/** What a {@link ProxyLink} asks of the proxy that owns it. */
export interface LinkOwner {
  /** The rules in force, in the order they were armed. */
  rules(): readonly RequestRule[];
  /** The delay in force for a direction. */
  delay(direction: ProxyDirection): Delay;
  /** A cut by `rule` is done (both sockets destroyed). */
  cutDone(rule: RequestRule): void;
  /** The link is closed for good. */
  closed(link: ProxyLink): void;
}

// After one of these, replies are no longer one per request (pub/sub messages, MONITOR's feed,
// CLIENT REPLY OFF), so the link stops pairing them and no rule applies to it any more.
const UNPAIRED_COMMANDS = new Set(['SUBSCRIBE', 'PSUBSCRIBE', 'SSUBSCRIBE', 'MONITOR']);
const CLIENT_REPLY = /^\*\d+\r\n\$6\r\nclient\r\n\$5\r\nreply\r\n/i;

/**
 * One client connection through a fault proxy and the connection to Redis opened for it. Requests
 * and replies are forwarded a complete RESP frame at a time, so that each reply can be paired with
 * its request: that is what lets a cut swallow exactly the reply of the request it matched, after
 * Redis ran it and replied to the requests before it.
 */
export class ProxyLink {
  readonly #client: net.Socket;
  readonly #upstream: net.Socket;
  readonly #owner: LinkOwner;
  readonly #toServer: DelayQueue;
  readonly #toClient: DelayQueue;
  readonly #requests = new RespFrameScanner();
  readonly #replies = new RespFrameScanner();
  // Rules to credit when the reply to the request with this index goes back to the client.
  readonly #watched = new Map<number, RequestRule[]>();
  #paired = true;
  #requestCount = 0;
  #replyCount = 0;
  #cut: { readonly index: number; readonly rule: RequestRule } | undefined;
  #closed = false;

  /** Opens the connection to `target` for `client` and starts forwarding. */
  constructor(client: net.Socket, target: RedisAddress, owner: LinkOwner) {
    this.#client = client;
    this.#owner = owner;
    this.#toServer = new DelayQueue(() => owner.delay('toServer'));
    this.#toClient = new DelayQueue(() => owner.delay('toClient'));
    // Writes before the connection is up are buffered by the socket.
    this.#upstream = net.createConnection({ host: target.host, port: target.port });
    for (const socket of [client, this.#upstream]) {
      socket.setNoDelay(true);
      socket.on('error', () => this.destroy());
      socket.on('close', () => this.destroy());
    }
    client.on('data', (chunk: Buffer) => this.#fromClient(chunk));
    this.#upstream.on('data', (chunk: Buffer) => this.#fromServer(chunk));
    // A side that ends its stream (QUIT) has the end passed on once what it sent before is through.
    client.on('end', () => this.#toServer.run(() => this.#upstream.end()));
    this.#upstream.on('end', () => this.#toClient.run(() => client.end()));
  }

  /** Timers pending for delayed chunks (0, 1 or 2). */
  get pendingTimers(): number {
    return Number(this.#toServer.timing) + Number(this.#toClient.timing);
  }

  /** `true` once both sockets are destroyed. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Destroys both sockets at once, dropping whatever the delays still held. Idempotent. */
  destroy(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#toServer.clear();
    this.#toClient.clear();
    this.#client.destroy();
    this.#upstream.destroy();
    this.#owner.closed(this);
  }

  #fromClient(chunk: Buffer): void {
    // After a cut's request went out, nothing more reaches Redis on this connection.
    if (this.#closed || this.#cut !== undefined) return;
    if (!this.#paired) return this.#send(this.#upstream, this.#toServer, chunk);
    const scan = this.#scan(this.#requests, chunk, 'toServer');
    if (scan === undefined) return;
    let through = 0;
    for (const frame of scan.frames) {
      through = frame.end;
      const request = scan.buffer.subarray(frame.start, frame.end);
      const index = this.#requestCount++;
      const command = commandName(request);
      if (command !== undefined && (UNPAIRED_COMMANDS.has(command) || (command === 'CLIENT' && CLIENT_REPLY.test(request.toString('latin1', 0, 40))))) {
        this.#stopPairing();
        // Nothing of this chunk went out yet: all of it goes now, complete frames or not, and
        // the rest of the stream unexamined.
        this.#requests.drain();
        return this.#send(this.#upstream, this.#toServer, scan.buffer);
      }
      for (const rule of this.#owner.rules()) {
        if (!rule.matches(command, request)) continue;
        if (rule.admit(this.#cut === undefined) && this.#cut === undefined) this.#cut = { index, rule };
        else this.#watch(index, rule);
      }
      // The cut request is the last one Redis gets from this connection.
      if (this.#cut !== undefined) break;
    }
    if (through > 0) this.#send(this.#upstream, this.#toServer, scan.buffer.subarray(0, through));
  }

  #fromServer(chunk: Buffer): void {
    if (this.#closed) return;
    if (!this.#paired) return this.#send(this.#client, this.#toClient, chunk);
    const scan = this.#scan(this.#replies, chunk, 'toClient');
    if (scan === undefined) return;
    let through = 0;
    for (const frame of scan.frames) {
      // Pushes and attributes answer no request.
      if (frame.kind !== 'frame') {
        through = frame.end;
        continue;
      }
      const index = this.#replyCount++;
      if (index === this.#cut?.index) {
        // Redis ran the request and replied: the reply goes nowhere, and neither does the link.
        const { rule } = this.#cut;
        this.#send(this.#client, this.#toClient, scan.buffer.subarray(0, frame.start));
        this.#toClient.run(() => {
          this.destroy();
          this.#owner.cutDone(rule);
        });
        return;
      }
      through = frame.end;
      for (const rule of this.#watched.get(index) ?? []) rule.recordAnswered();
      this.#watched.delete(index);
    }
    if (through > 0) this.#send(this.#client, this.#toClient, scan.buffer.subarray(0, through));
  }

  /** Scans a chunk; a stream that cannot be framed is forwarded as it is from then on. */
  #scan(scanner: RespFrameScanner, chunk: Buffer, direction: ProxyDirection): ScanResult | undefined {
    try {
      return scanner.push(chunk);
    } catch (error) {
      if (!(error instanceof UnframedStreamError)) throw error;
      this.#stopPairing();
      const [socket, queue] = direction === 'toServer' ? [this.#upstream, this.#toServer] : [this.#client, this.#toClient];
      this.#send(socket, queue, Buffer.concat([scanner.drain(), chunk]));
      return undefined;
    }
  }

  /** From now on bytes pass as they come; what either scanner held back goes first. */
  #stopPairing(): void {
    this.#paired = false;
    this.#watched.clear();
    const heldReplies = this.#replies.drain();
    if (heldReplies.length > 0) this.#send(this.#client, this.#toClient, heldReplies);
  }

  #watch(index: number, rule: RequestRule): void {
    const rules = this.#watched.get(index);
    if (rules === undefined) this.#watched.set(index, [rule]);
    else rules.push(rule);
  }

  #send(socket: net.Socket, queue: DelayQueue, bytes: Buffer): void {
    if (bytes.length === 0) return;
    // Safe to hold on to: socket chunks and the scanner's buffers are never written again.
    queue.run(() => {
      if (!socket.destroyed) socket.write(bytes);
    });
  }
}
