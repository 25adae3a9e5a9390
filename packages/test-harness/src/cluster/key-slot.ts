/** Redis Cluster has this many hash slots. */
export const SLOT_COUNT = 16_384;

const CRC16_TABLE = buildTable();

/**
 * The cluster hash slot of a key, as Redis computes it: CRC16/XMODEM of the key modulo 16384,
 * where a non-empty `{hash tag}` (the first `{` and the first `}` after it) replaces the key.
 * Works on the UTF-8 bytes, as the server does.
 */
export function keySlot(key: string | Buffer): number {
  const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : key;
  return crc16(hashTagOf(bytes)) % SLOT_COUNT;
}

function hashTagOf(key: Buffer): Buffer {
  const open = key.indexOf(0x7b); // '{'
  if (open === -1) return key;
  const close = key.indexOf(0x7d, open + 1); // '}'
  // "{}" or no closing brace: the whole key is hashed.
  if (close === -1 || close === open + 1) return key;
  return key.subarray(open + 1, close);
}

/** CRC16/XMODEM: polynomial 0x1021, initial value 0, no reflection, no final xor. */
function crc16(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) {
    crc = ((crc << 8) ^ (CRC16_TABLE[((crc >> 8) ^ byte) & 0xff] ?? 0)) & 0xffff;
  }
  return crc;
}

function buildTable(): Uint16Array {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let value = i << 8;
    for (let bit = 0; bit < 8; bit++) value = value & 0x8000 ? ((value << 1) ^ 0x1021) & 0xffff : (value << 1) & 0xffff;
    table[i] = value;
  }
  return table;
}
