import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** One e-mail received, per recipient, read as a mail client reads it. */
export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
}

/**
 * A real SMTP server (npm smtp-server) on loopback for the tests: every e-mail CM sends there is
 * parsed as a mail client would (encoded-word subjects, quoted-printable bodies) and handed to
 * `onMail` once per recipient.
 */
export async function startSmtpSink(
  onMail: (mail: ReceivedMail) => void,
): Promise<{ url: string; stop(): Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      simpleParser(stream).then(
        (mail) => {
          for (const to of session.envelope.rcptTo)
            onMail({ to: to.address, subject: mail.subject ?? '', text: mail.text ?? '' });
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
