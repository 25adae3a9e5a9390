/**
 * A reply from Redis in RESP2, the protocol a fresh connection speaks (we never send HELLO 3).
 * Simple and bulk strings become `string`, integers `number`, a nil reply `null`, arrays
 * `RespValue[]`. An error nested inside an array (for example in an EXEC reply) is kept as a
 * {@link RespError} value; a top-level error reply rejects the command instead.
 */
export type RespValue = string | number | null | RespError | RespValue[];

/** An argument of a raw command; numbers are sent as their decimal text. */
export type RespArgument = string | number | Buffer;

/** An error reply from the server, such as `ERR unknown command` or `MOVED 3999 127.0.0.1:30001`. */
export class RespError extends Error {
  /** The first word of the reply (`ERR`, `MOVED`, `NOSCRIPT`, ...), which says what kind of error it is. */
  readonly prefix: string;

  constructor(message: string) {
    super(message);
    this.name = 'RespError';
    this.prefix = message.split(' ', 1)[0] ?? '';
  }
}

/** Encodes one command as a RESP array of bulk strings, the only form servers must accept. */
export function encodeCommand(args: readonly RespArgument[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`)];
  for (const arg of args) {
    const bytes = Buffer.isBuffer(arg) ? arg : Buffer.from(String(arg), 'utf8');
    parts.push(Buffer.from(`$${bytes.length}\r\n`), bytes, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

/** Thrown by the parser on bytes that are not RESP; the connection cannot recover from it. */
export class RespProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RespProtocolError';
  }
}

interface Parsed {
  value: RespValue;
  end: number;
}

/**
 * Incremental RESP2 parser: feed it whatever arrives on the socket and take out every reply
 * that is complete. Partial replies stay buffered until the rest arrives.
 */
export class RespParser {
  private buffer: Buffer = Buffer.alloc(0);

  /** Appends received bytes and returns the replies they complete, in order. */
  push(chunk: Buffer): RespValue[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const replies: RespValue[] = [];
    let offset = 0;
    for (;;) {
      const parsed = this.parseAt(offset);
      if (parsed === undefined) break;
      replies.push(parsed.value);
      offset = parsed.end;
    }
    this.buffer = this.buffer.subarray(offset);
    return replies;
  }

  private parseAt(offset: number): Parsed | undefined {
    const lineEnd = this.buffer.indexOf('\r\n', offset);
    if (lineEnd === -1) return undefined;
    const type = String.fromCharCode(this.buffer[offset] ?? 0);
    const line = this.buffer.toString('utf8', offset + 1, lineEnd);
    const afterLine = lineEnd + 2;
    switch (type) {
      case '+':
        return { value: line, end: afterLine };
      case '-':
        return { value: new RespError(line), end: afterLine };
      case ':':
        return { value: Number(line), end: afterLine };
      case '$':
        return this.parseBulk(Number(line), afterLine);
      case '*':
        return this.parseArray(Number(line), afterLine);
      default:
        throw new RespProtocolError(`unexpected RESP type byte ${JSON.stringify(type)}`);
    }
  }

  private parseBulk(length: number, start: number): Parsed | undefined {
    if (length < 0) return { value: null, end: start };
    const end = start + length;
    if (this.buffer.length < end + 2) return undefined;
    return { value: this.buffer.toString('utf8', start, end), end: end + 2 };
  }

  private parseArray(count: number, start: number): Parsed | undefined {
    if (count < 0) return { value: null, end: start };
    const items: RespValue[] = [];
    let offset = start;
    for (let i = 0; i < count; i++) {
      const item = this.parseAt(offset);
      if (item === undefined) return undefined;
      items.push(item.value);
      offset = item.end;
    }
    return { value: items, end: offset };
  }
}
