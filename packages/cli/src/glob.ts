/**
 * Whether `text` matches a Redis glob `pattern` (`*`, `?`, `[abc]`, `[^a-z]`, `\x`), as SCAN's
 * MATCH does. Needed on this side for what SCAN cannot filter by the lock name: a fair queue's key
 * is `redisson_lock_queue:{name}`, and a semaphore is found by its channel.
 */
export function matchesGlob(pattern: string, text: string): boolean {
  return new RegExp(`^${globToRegExpSource(pattern)}$`, 's').test(text);
}

function globToRegExpSource(pattern: string): string {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] ?? '';
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else if (char === '\\' && i + 1 < pattern.length) source += escapeRegExp(pattern[++i] ?? '');
    else if (char === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) {
        source += '\\[';
        continue;
      }
      source += characterClass(pattern.slice(i + 1, end));
      i = end;
    } else source += escapeRegExp(char);
  }
  return source;
}

// `[^...]` negates as in Redis; ranges stay ranges; anything else a regex would read specially is escaped.
function characterClass(body: string): string {
  const negated = body.startsWith('^');
  const members = (negated ? body.slice(1) : body).replace(/[\\\]^[]/g, (c) => `\\${c}`);
  return `[${negated ? '^' : ''}${members}]`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, (c) => `\\${c}`);
}
