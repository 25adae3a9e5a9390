import net from 'node:net';
import type { RedisAddress } from '@deadbolt/testing/servers';
import type { ProxyDirection } from './controls.js';
import { DelayQueue, type Delay } from './delay.js';
import { commandName, RespFrameScanner, UnframedStreamError, type ScanResult } from './frames.js';
import { RequestHold, type HeldRequest } from './request-hold.js';
import type { RequestRule } from './request-rule.js';

/** What a {@link ProxyLink} asks of the proxy that owns it. */
export interface LinkOwner {
  /** The rules in force, in the order they were armed. */
  rules(): readonly RequestRule[];
  /** The delay in force for a direction. */
  delay(direction: ProxyDirection): Delay;
  /** A cut by `rule` is done (both sockets destroyed). */
  cutDone(rule: RequestRule): void;
  /** `rule` held a request, which `request` delivers. */
  held(rule: RequestHold, request: HeldRequest): void;
  /** A held request was delivered and its late reply came. */
  delivered(): void;
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
 * Redis ran it and replied to the requests before it, and a hold keep one request back and
 * deliver it late on this connection to Redis, which then outlives the client's side.
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
  // The request cut or held: the last one from this client that Redis gets on this connection.
  #final: { readonly index: number; readonly rule: RequestRule } | undefined;
  // The held request's bytes, until delivered; then the delivery waiting for the late reply.
  #heldBytes: Buffer | undefined;
  // Which reply answers a delivered request: the held request's index, or the one after it when
  // the held request is a copy of one that ran (its own reply was swallowed).
  #lateReplyIndex = -1;
  #delivery: { readonly resolve: (reply: Buffer) => void; readonly reject: (error: Error) => void } | undefined;
  #dropScheduled = false;
  #dropTimer: NodeJS.Timeout | undefined;
  #clientOpen = true;
  #closed = false;

  /** Opens the connection to `target` for `client` and starts forwarding. */
  constructor(client: net.Socket, target: RedisAddress, owner: LinkOwner) {
    this.#client = client;
    this.#owner = owner;
    this.#toServer = new DelayQueue(() => owner.delay('toServer'));
    this.#toClient = new DelayQueue(() => owner.delay('toClient'));
    // Writes before the connection is up are buffered by the socket.
    this.#upstream = net.createConnection({ host: target.host, port: target.port });
    for (const socket of [client, this.#upstream]) socket.setNoDelay(true);
    // The client's side going away ends the link, unless a request is held for a late delivery.
    client.on('error', () => this.#clientGone());
    client.on('close', () => this.#clientGone());
    this.#upstream.on('error', () => this.destroy());
    this.#upstream.on('close', () => this.destroy());
    client.on('data', (chunk: Buffer) => this.#fromClient(chunk));
    this.#upstream.on('data', (chunk: Buffer) => this.#fromServer(chunk));
    // A side that ends its stream (QUIT) has the end passed on once what it sent before is through
    // (not while a request is held: its connection stays open for the delivery).
    client.on('end', () => this.#toServer.run(() => this.#holding || this.#upstream.end()));
    this.#upstream.on('end', () => this.#toClient.run(() => client.end()));
  }

  /** Timers pending for delayed chunks and a stalled client's drop (0 to 3). */
  get pendingTimers(): number {
    return Number(this.#toServer.timing) + Number(this.#toClient.timing) + Number(this.#dropTimer !== undefined);
  }

  /** `true` once both sockets are destroyed. */
  get closed(): boolean {
    return this.#closed;
  }

  /** `true` while the client's side is open. */
  get clientOpen(): boolean {
    return this.#clientOpen && !this.#closed;
  }

  /** Destroys both sockets at once, dropping whatever the delays and a hold still held. Idempotent. */
  destroy(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#clientOpen = false;
    this.#heldBytes = undefined;
    clearTimeout(this.#dropTimer);
    this.#dropTimer = undefined;
    this.#toServer.clear();
    this.#toClient.clear();
    this.#client.destroy();
    this.#upstream.destroy();
    this.#delivery?.reject(
      new Error('fault proxy: the connection a request was held on closed before its late reply came'),
    );
    this.#delivery = undefined;
    this.#owner.closed(this);
  }

  /**
   * For partitions and resets: destroys the client's side, and the connection to Redis too unless
   * a request is held on it for a late delivery. Returns whether the client's side was open.
   */
  interrupt(): boolean {
    const wasOpen = this.clientOpen;
    if (this.#holding) this.#dropClient();
    else this.destroy();
    return wasOpen;
  }

  /** A held request not delivered yet, or delivered and waiting for its reply. */
  get #holding(): boolean {
    return !this.#closed && (this.#heldBytes !== undefined || this.#delivery !== undefined);
  }

  #clientGone(): void {
    this.#clientOpen = false;
    if (!this.#holding) this.destroy();
  }

  #dropClient(): void {
    clearTimeout(this.#dropTimer);
    this.#dropTimer = undefined;
    this.#toClient.clear();
    this.#client.destroy();
  }

  /**
   * Once every request before the held one has had its reply passed back, closes the client's
   * side (after the hold rule's `dropClientAfterMs`): the driver then sees the connection drop.
   */
  #dropClientWhenAnswered(): void {
    const final = this.#final;
    if (this.#dropScheduled || !(final?.rule instanceof RequestHold) || this.#replyCount < this.#lateReplyIndex) return;
    this.#dropScheduled = true;
    const { dropClientAfterMs } = final.rule;
    this.#toClient.run(() => {
      if (dropClientAfterMs === 0) this.#dropClient();
      else this.#dropTimer = setTimeout(() => this.#dropClient(), dropClientAfterMs);
    });
  }

  /** Gives the hold rule its {@link HeldRequest}, and has the client dropped in time. */
  #recordHeld(rule: RequestHold): void {
    this.#owner.held(rule, this.#heldRequest());
    this.#dropClientWhenAnswered();
  }

  /** The {@link HeldRequest} the hold rule gets: delivers the held bytes on this connection. */
  #heldRequest(): HeldRequest {
    const deliverable = () => this.#heldBytes !== undefined && !this.#closed;
    return {
      get deliverable() {
        return deliverable();
      },
      deliver: () => this.#deliver(),
    };
  }

  #deliver(): Promise<Buffer> {
    const bytes = this.#heldBytes;
    if (bytes === undefined || this.#closed) {
      return Promise.reject(
        new Error('fault proxy: the held request was delivered already, or its connection to Redis closed'),
      );
    }
    this.#heldBytes = undefined;
    const reply = new Promise<Buffer>((resolve, reject) => (this.#delivery = { resolve, reject }));
    this.#send(this.#upstream, this.#toServer, bytes);
    return reply;
  }

  #fromClient(chunk: Buffer): void {
    // After a cut or held request, nothing more from this client reaches Redis on this connection.
    if (this.#closed || this.#final !== undefined) return;
    if (!this.#paired) return this.#send(this.#upstream, this.#toServer, chunk);
    const scan = this.#scan(this.#requests, chunk, 'toServer');
    if (scan === undefined) return;
    let through = 0;
    for (const frame of scan.frames) {
      const request = scan.buffer.subarray(frame.start, frame.end);
      const index = this.#requestCount++;
      const command = commandName(request);
      if (
        command !== undefined &&
        (UNPAIRED_COMMANDS.has(command) ||
          (command === 'CLIENT' && CLIENT_REPLY.test(request.toString('latin1', 0, 40))))
      ) {
        this.#stopPairing();
        // Nothing of this chunk went out yet: all of it goes now, complete frames or not, and
        // the rest of the stream unexamined.
        this.#requests.drain();
        return this.#send(this.#upstream, this.#toServer, scan.buffer);
      }
      for (const rule of this.#owner.rules()) {
        if (!rule.matches(command, request)) continue;
        if (rule.admit(this.#final === undefined) && this.#final === undefined) {
          this.#final = { index, rule };
          rule.recordShot(request);
        } else this.#watch(index, rule);
      }
      const final = this.#final;
      if (final?.rule instanceof RequestHold) {
        // Kept back (a copy, when it also goes on now); the requests before it go on.
        this.#heldBytes = Buffer.from(request);
        this.#lateReplyIndex = final.rule.duplicate ? index + 1 : index;
        if (final.rule.duplicate) through = frame.end;
        else this.#recordHeld(final.rule);
        break;
      }
      through = frame.end;
      // The cut request is the last one Redis gets from this connection.
      if (final !== undefined) break;
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
      const final = this.#final;
      if (final?.rule instanceof RequestHold && final.rule.duplicate && index === final.index) {
        // The first run of a request whose copy is held: its reply goes nowhere, and the copy is
        // ready for a late delivery.
        this.#send(this.#client, this.#toClient, scan.buffer.subarray(0, frame.start));
        this.#recordHeld(final.rule);
        return;
      }
      if (final !== undefined && index === (final.rule instanceof RequestHold ? this.#lateReplyIndex : final.index)) {
        // Redis ran the request (cut, or delivered late) and replied: the reply goes nowhere but to
        // a delivery, and the link ends.
        const { rule } = final;
        const reply = Buffer.from(scan.buffer.subarray(frame.start, frame.end));
        this.#send(this.#client, this.#toClient, scan.buffer.subarray(0, frame.start));
        const delivery = this.#delivery;
        this.#delivery = undefined;
        delivery?.resolve(reply);
        this.#toClient.run(() => {
          this.destroy();
          if (delivery !== undefined) this.#owner.delivered();
          else if (!(rule instanceof RequestHold)) this.#owner.cutDone(rule);
        });
        return;
      }
      through = frame.end;
      for (const rule of this.#watched.get(index) ?? []) rule.recordAnswered();
      this.#watched.delete(index);
    }
    if (through > 0) this.#send(this.#client, this.#toClient, scan.buffer.subarray(0, through));
    this.#dropClientWhenAnswered();
  }

  /** Scans a chunk; a stream that cannot be framed is forwarded as it is from then on. */
  #scan(scanner: RespFrameScanner, chunk: Buffer, direction: ProxyDirection): ScanResult | undefined {
    try {
      return scanner.push(chunk);
    } catch (error) {
      if (!(error instanceof UnframedStreamError)) throw error;
      this.#stopPairing();
      const [socket, queue] =
        direction === 'toServer' ? [this.#upstream, this.#toServer] : [this.#client, this.#toClient];
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
