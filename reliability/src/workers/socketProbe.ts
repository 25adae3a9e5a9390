// A socket probe for the chaos harness's own test: one TCP connection to a Redis server, kept open
// for the whole run. On each `ping` line from stdin it sends PING on that connection and prints
// `pong` when the reply comes or `silent` when none came within the line's wait (`ping <ms>`); `closed` when the
// connection ends (a RST, say), which a silent partition must never cause.
import net from 'node:net';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { SOCKET_PROBE_JOB_VARIABLE, type SocketProbeEvent, type SocketProbeJob } from '../chaos/socketProbeEvents.js';

const emit = (event: SocketProbeEvent) => void process.stdout.write(`${JSON.stringify(event)}\n`);
const job = JSON.parse(process.env[SOCKET_PROBE_JOB_VARIABLE] ?? '') as SocketProbeJob;
const socket = net.connect(job.port, job.host);
socket.on('error', (error) => emit({ event: 'closed', reason: error.message }));
socket.on('close', () => emit({ event: 'closed', reason: 'close' }));
await once(socket, 'connect');
let replies = 0;
socket.on('data', (chunk) => (replies += chunk.toString().split('+PONG').length - 1));
emit({ event: 'ready' });

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'exit') break;
  const waitMs = Number(line.split(' ')[1]);
  const before = replies;
  socket.write('PING\r\n');
  const started = Date.now();
  while (replies === before && Date.now() - started < waitMs) await new Promise((resolve) => setTimeout(resolve, 10));
  // An answer that arrives later (after a heal) is counted for the next ping, not this one.
  emit(replies > before ? { event: 'pong' } : { event: 'silent' });
}
socket.destroy();
process.exit(0);
