import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One e-mail the suite's SMTP server received. */
export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * A real SMTP server (npm smtp-server) on loopback for the browser suite: CM sends its alert
 * e-mails there, and each one received is appended to `file` as a JSON line, where the tests
 * (in other worker processes) read them.
 */
export async function startMailbox(file: string): Promise<{ url: string; stop(): Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      // Parsed as a mail client would: encoded-word subjects, quoted-printable bodies.
      simpleParser(stream).then(
        (mail) => {
          for (const to of session.envelope.rcptTo)
            appendFileSync(
              file,
              `${JSON.stringify({ to: to.address, subject: mail.subject ?? '', text: mail.text ?? '' })}\n`,
            );
          done();
        },
        (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The e-mails received so far. */
export function receivedMails(file: string): ReceivedMail[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as ReceivedMail);
}
