import { startServerProcess } from './server-process.ts';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    cmBaseUrl: string;
  }
}

/** One real server (fresh embedded database with the demo data) for the whole browser suite. */
export default async function setup(project: TestProject) {
  const server = await startServerProcess();
  project.provide('cmBaseUrl', server.url);
  return async () => {
    await server.stop();
  };
}
