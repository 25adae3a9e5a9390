#!/usr/bin/env node
import { createInterface } from 'node:readline/promises';
import { runCli } from './cli.js';
import type { CommandIo } from './io.js';

// The `deadbolt` command: the process's streams around runCli.
// The first Ctrl-C stops the command, which closes its connections and exits with 130; a second
// one ends the process at once, should closing hang.
const interrupted = new AbortController();
process.on('SIGINT', () => {
  if (interrupted.signal.aborted) process.exit(130);
  interrupted.abort();
});

async function ask(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  // On a terminal readline reads Ctrl-C as a key, not as a signal: it is passed on as one.
  prompt.on('SIGINT', () => process.emit('SIGINT'));
  try {
    return /^y(es)?$/i.test((await prompt.question(question, { signal: interrupted.signal })).trim());
  } finally {
    prompt.close();
  }
}

const io: CommandIo = {
  write: (text) => process.stdout.write(text),
  isTty: process.stdout.isTTY === true,
  confirm: process.stdin.isTTY === true ? ask : undefined,
  signal: interrupted.signal,
  now: () => Date.now(),
  env: process.env,
};

// No top-level await: the build also emits a CommonJS copy of every entry.
void runCli(process.argv.slice(2), io, (line) => process.stderr.write(`${line}\n`)).then((code) => {
  process.exitCode = code;
});
