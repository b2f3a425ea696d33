// The light requests of a drill, sent from a thread of their own: the drill's main thread builds
// and sends large files, and a request timed there would wait for that work, not for the server.
import { parentPort, workerData } from 'node:worker_threads';
import { call } from './http.ts';
import type { LightSample, LightTarget } from './light-load.ts';

const { targets, everyMs } = workerData as { targets: LightTarget[]; everyMs: number };
const samples: LightSample[] = [];
const pending = new Set<Promise<void>>();

const timer = setInterval(() => {
  for (const { kind, url, token } of targets) {
    const request = call(url, { timeoutMs: 120_000, ...(token ? { token } : {}) }).then((answer) => {
      samples.push({ kind, answer });
      pending.delete(request);
    });
    pending.add(request);
  }
}, everyMs);

parentPort?.on('message', (message: 'take' | 'stop') => {
  if (message === 'stop') clearInterval(timer);
  void Promise.all([...pending]).then(() => parentPort?.postMessage(samples.splice(0)));
});
