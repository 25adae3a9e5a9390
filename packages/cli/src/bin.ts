#!/usr/bin/env node
import { createInterface } from 'node:readline/promises';
import { runCli } from './cli.js';
import type { CommandIo } from './io.js';

// The `deadbolt` command: the process's streams around runCli.
const interrupted = new AbortController();
process.once('SIGINT', () => interrupted.abort());

async function ask(question: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await prompt.question(question)).trim());
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
};

// No top-level await: the build also emits a CommonJS copy of every entry.
void runCli(process.argv.slice(2), io, (line) => process.stderr.write(`${line}\n`)).then((code) => {
  process.exitCode = code;
});
