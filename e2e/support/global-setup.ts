import { mkdtemp } from 'node:fs/promises';
import net from 'node:net';
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
  // A port known before the server starts: the OAuth issuer (CM_PUBLIC_URL) names it.
  const port = await freePort();
  const server = await startServerProcess({
    PORT: String(port),
    CM_PUBLIC_URL: `http://127.0.0.1:${port}`,
    CM_SMTP_URL: mailbox.url,
    CM_MAX_EVENT_LOOP_DELAY_MS: '0',
    CM_DISK_LOW_BYTES: '0',
    // The third-party app of connect-my-data.e2e.ts gets its ESPI notifications on loopback.
    CM_OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
  });
  project.provide('cmBaseUrl', server.url);
  project.provide('cmMailFile', mailFile);
  return async () => {
    await server.stop();
    await mailbox.stop();
  };
}

/** A loopback port free now (the system's pick, released at once). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
