import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { startSmtpSink, type ReceivedMail } from '../../apps/server/src/test/smtp-sink.ts';

/**
 * The suite's SMTP server (apps/server/src/test/smtp-sink.ts): each e-mail CM sends there is
 * appended to `file` as a JSON line, where the tests (in other worker processes) read them.
 */
export function startMailbox(file: string): Promise<{ url: string; stop(): Promise<void> }> {
  return startSmtpSink((mail) => appendFileSync(file, `${JSON.stringify(mail)}\n`));
}

/** The e-mails received so far. */
export function receivedMails(file: string): ReceivedMail[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ReceivedMail);
}
