import type { RedisAddress } from '@deadbolt/test-harness';
import { counterDelta, serverCounters, sumByCommand, type ServerCounters } from './commandStats.js';
import type { Mutex } from './contenders/Contender.js';
import { trivialScript, type Connection } from './drivers.js';

/** One measured stretch of work: its wall time, this process's CPU time, and the server's work. */
export interface Measured {
  readonly ms: number;
  readonly clientCpuMs: number;
  readonly server: ServerCounters;
}

/** Runs `work` and measures it; `address` is the server whose counters are read around it. */
export async function measured(address: RedisAddress, work: () => Promise<unknown>): Promise<Measured> {
  const serverBefore = await serverCounters(address);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const server = counterDelta(serverBefore, await serverCounters(address));
  return { ms, clientCpuMs: (cpu.user + cpu.system) / 1000, server };
}

/** The sum of several measurements. */
export function total(measurements: readonly Measured[]): Measured {
  const sum = (pick: (m: Measured) => number) => measurements.reduce((acc, m) => acc + pick(m), 0);
  return {
    ms: sum((m) => m.ms),
    clientCpuMs: sum((m) => m.clientCpuMs),
    server: {
      commands: sum((m) => m.server.commands),
      subscriptionCommands: sum((m) => m.server.subscriptionCommands),
      scriptCalls: sum((m) => m.server.scriptCalls),
      ttlCommands: sum((m) => m.server.ttlCommands),
      cpuMs: sum((m) => m.server.cpuMs),
      byCommand: sumByCommand(measurements.map((m) => m.server.byCommand)),
    },
  };
}

/** Runs `count` iterations of `step` in each of `tasks` concurrent tasks. */
export async function inTasks(tasks: number, count: number, step: (task: number) => Promise<unknown>): Promise<void> {
  await Promise.all(
    Array.from({ length: tasks }, async (_, task) => {
      for (let i = 0; i < count; i++) await step(task);
    }),
  );
}

/** Sleeps `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/**
 * The floor in the shape of a lock: acquiring and releasing it are one trivial EVALSHA round
 * trip each, on `connection`. Run in place of a contender's lock, it measures the floor of a
 * workload.
 */
export function floorMutex(connection: Connection): Mutex {
  return {
    acquire: async () => {
      await trivialScript(connection);
      return { release: async () => void (await trivialScript(connection)) };
    },
  };
}
