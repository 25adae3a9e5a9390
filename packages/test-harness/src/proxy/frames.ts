/**
 * Finds where RESP frames end in a byte stream, without decoding them: what the fault proxy needs
 * to tell requests apart (client to server) and to pair each reply with its request (server to
 * client). RESP2 and RESP3 are both understood.
 */

/** What a complete frame is, as far as pairing requests with replies goes. */
export type FrameKind =
  /** A reply to a request, or a request: what is counted. */
  | 'frame'
  /** A RESP3 push (`>`): out-of-band data, such as a pub/sub message; answers no request. */
  | 'push'
  /** A RESP3 attribute (`|`): metadata that precedes the reply it belongs to. */
  | 'attribute';

/** One complete frame found by {@link RespFrameScanner.push}, as offsets into {@link ScanResult.buffer}. */
export interface ScannedFrame {
  readonly kind: FrameKind;
  /** Offset of the frame's first byte. */
  readonly start: number;
  /** Offset just past the frame's last byte. */
  readonly end: number;
}

/** What {@link RespFrameScanner.push} found. */
export interface ScanResult {
  /** The bytes carried over from earlier chunks followed by the new chunk. */
  readonly buffer: Buffer;
  /** The complete frames, in order and back to back from offset 0. */
  readonly frames: readonly ScannedFrame[];
}

/** The stream held something that is not RESP (or RESP the scanner does not follow, like streamed strings). */
export class UnframedStreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnframedStreamError';
  }
}

const CRLF = Buffer.from('\r\n');
// Types whose frame is one line: simple string, error, integer, RESP3 null, double, boolean, big number.
const LINE_TYPES = new Set(['+', '-', ':', '_', ',', '#', '(']);
// Types whose frame is a length line and that many bytes: bulk string, bulk error, verbatim string.
const BLOB_TYPES = new Set(['$', '!', '=']);
// Types whose frame is a count line and that many frames: array, set, push.
const LIST_TYPES = new Set(['*', '~', '>']);
// Types whose frame is a count line and twice that many frames: map, attribute.
const MAP_TYPES = new Set(['%', '|']);

/**
 * Incremental frame scanner for one direction of one connection: push every chunk as it arrives
 * and get the frames it completes, in order. Bytes after the last complete frame are kept until
 * the rest arrives. Throws {@link UnframedStreamError} on bytes it cannot frame (and keeps what it
 * had); the caller should then {@link RespFrameScanner.drain} it and stop scanning that stream.
 */
export class RespFrameScanner {
  #pending: Buffer = Buffer.alloc(0);

  /** Appends `chunk` and returns the frames it completes. */
  push(chunk: Buffer): ScanResult {
    const buffer = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const frames: ScannedFrame[] = [];
    let offset = 0;
    for (;;) {
      const end = frameEnd(buffer, offset);
      if (end === undefined) break;
      frames.push({ kind: kindOf(buffer[offset]), start: offset, end });
      offset = end;
    }
    this.#pending = offset === buffer.length ? Buffer.alloc(0) : Buffer.from(buffer.subarray(offset));
    return { buffer, frames };
  }

  /** Returns the bytes kept back (an incomplete frame) and forgets them. */
  drain(): Buffer {
    const pending = this.#pending;
    this.#pending = Buffer.alloc(0);
    return pending;
  }
}

function kindOf(typeByte: number | undefined): FrameKind {
  if (typeByte === 0x3e) return 'push'; // '>'
  if (typeByte === 0x7c) return 'attribute'; // '|'
  return 'frame';
}

/** Where the frame starting at `offset` ends, or `undefined` when it is not complete yet. */
function frameEnd(buffer: Buffer, offset: number): number | undefined {
  if (offset >= buffer.length) return undefined;
  const lineEnd = buffer.indexOf(CRLF, offset);
  if (lineEnd === -1) return undefined;
  const type = String.fromCharCode(buffer[offset] ?? 0);
  const afterLine = lineEnd + 2;
  if (LINE_TYPES.has(type)) return afterLine;
  const header = buffer.toString('latin1', offset + 1, lineEnd);
  const count = Number(header);
  if (!Number.isInteger(count))
    throw new UnframedStreamError(
      `cannot frame RESP type ${JSON.stringify(type)} with length ${JSON.stringify(header)}`,
    );
  if (BLOB_TYPES.has(type)) {
    if (count < 0) return afterLine;
    const end = afterLine + count + 2;
    return buffer.length >= end ? end : undefined;
  }
  if (LIST_TYPES.has(type) || MAP_TYPES.has(type)) {
    let next: number | undefined = afterLine;
    const items = MAP_TYPES.has(type) ? 2 * count : count;
    for (let item = 0; item < items && next !== undefined; item++) next = frameEnd(buffer, next);
    return next;
  }
  throw new UnframedStreamError(`unexpected RESP type byte ${JSON.stringify(type)}`);
}

/**
 * The command name of a request frame (an array of bulk strings), upper-cased, or `undefined`
 * when the frame is not one.
 */
export function commandName(request: Buffer): string | undefined {
  if (request[0] !== 0x2a) return undefined; // '*'
  const firstLine = request.indexOf(CRLF);
  if (firstLine === -1 || request[firstLine + 2] !== 0x24) return undefined; // '$'
  const lengthEnd = request.indexOf(CRLF, firstLine + 2);
  if (lengthEnd === -1) return undefined;
  const length = Number(request.toString('latin1', firstLine + 3, lengthEnd));
  if (!Number.isInteger(length) || length < 0) return undefined;
  return request.toString('latin1', lengthEnd + 2, lengthEnd + 2 + length).toUpperCase();
}
