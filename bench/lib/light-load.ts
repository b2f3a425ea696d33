import { Worker } from 'node:worker_threads';
import type { Answer } from './http.ts';

export interface LightTarget {
  kind: string;
  url: string;
  token?: string;
}

export interface LightSample {
  kind: string;
  answer: Answer;
}

/**
 * Light requests to every target each `everyMs`, open loop (a slow answer does not delay the next
 * request), from a worker thread so that the caller's own work never delays or times them.
 */
export function startLightLoad(targets: LightTarget[], everyMs: number) {
  // The drills run under tsx, whose loader a worker does not inherit: register it, then load the TypeScript.
  const script = new URL('./light-load.worker.ts', import.meta.url).href;
  const worker = new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(script)}); });`,
    { eval: true, workerData: { targets, everyMs } },
  );
  const ask = (message: 'take' | 'stop') =>
    new Promise<LightSample[]>((resolve) => {
      worker.once('message', resolve);
      worker.postMessage(message);
    });
  return {
    /** The answers to the requests sent since the last take (waits for those still in flight). */
    take: () => ask('take'),
    /** Stops sending; answers what was not taken yet. */
    async stop(): Promise<LightSample[]> {
      const rest = await ask('stop');
      await worker.terminate();
      return rest;
    },
  };
}
