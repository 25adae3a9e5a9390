import { describe, expect, it } from 'vitest';
import { encodeCommand, RespError, RespParser } from '../src/resp/protocol.js';

describe('RESP codec', () => {
  it('encodes a command as an array of bulk strings, counting bytes not characters', () => {
    expect(encodeCommand(['SET', 'kéy', 42]).toString()).toBe('*3\r\n$3\r\nSET\r\n$4\r\nkéy\r\n$2\r\n42\r\n');
  });

  it('parses every RESP2 type, across chunk boundaries', () => {
    const parser = new RespParser();
    const wire = '+OK\r\n:12\r\n$-1\r\n$5\r\nhello\r\n*2\r\n$1\r\na\r\n*1\r\n-ERR inner\r\n*-1\r\n';
    const replies = [...wire].flatMap((ch) => parser.push(Buffer.from(ch)));
    expect(replies.slice(0, 4)).toEqual(['OK', 12, null, 'hello']);
    const nested = replies[4] as unknown[];
    expect(nested[0]).toBe('a');
    expect((nested[1] as unknown[])[0]).toBeInstanceOf(RespError);
    expect(replies[5]).toBeNull();
  });

  it('keeps the error prefix of an error reply', () => {
    const [reply] = new RespParser().push(Buffer.from('-MOVED 3999 127.0.0.1:6381\r\n'));
    expect(reply).toBeInstanceOf(RespError);
    expect((reply as RespError).prefix).toBe('MOVED');
  });
});
