import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { findChromium } from './chromium.ts';
import { startMailbox } from './mailbox.ts';
import { startServerProcess } from './server-process.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    cmBaseUrl: string;
    /** Where the suite's SMTP server writes the e-mails CM sends (support/mailbox.ts). */
    cmMailFile: string;
  }
}

/** The browser to drive, one real server (fresh embedded database with the demo data) for the whole browser suite, and an SMTP server for its e-mails. */
export default async function setup(project: TestProject) {
  const chromium = await findChromium();
  console.log(`browser suite: Chromium from ${chromium.source}`);
  project.provide('cmChromium', chromium);
  const mailFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'cm-e2e-mail-')), 'mails.jsonl');
  const mailbox = await startMailbox(mailFile);
  // Shedding for event-loop delay stays off, and health's low-disk bound too: a page must not fail
  // because the machine is busy or its disk nearly full.
  const server = await startServerProcess({
    CM_SMTP_URL: mailbox.url,
    CM_MAX_EVENT_LOOP_DELAY_MS: '0',
    CM_DISK_LOW_BYTES: '0',
  });
  project.provide('cmBaseUrl', server.url);
  project.provide('cmMailFile', mailFile);
  return async () => {
    await server.stop();
    await mailbox.stop();
  };
}
