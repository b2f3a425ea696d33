import nodemailer from 'nodemailer';

/** Sends one e-mail; rejects with the SMTP server's reason. */
export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
  /** The server's host and port (never its credentials) and the sender, for the admin's view. */
  readonly about?: { server: string; from: string };
}

/** How long a mail server may take to accept the connection, greet, and answer each command. */
export const SMTP_TIMEOUTS_MS = { connection: 10_000, greeting: 10_000, socket: 30_000 };

/**
 * A mailer over SMTP (`smtp://user:pass@host:port`, `smtps://…`), or null without a URL. A stalled
 * server fails a send within seconds (SMTP_TIMEOUTS_MS), not the library's 10 minutes. A password
 * goes only over TLS: an `smtp://` URL with credentials requires STARTTLS (the send fails if the
 * server offers none) unless `allowPlainAuth` (security probe 2026-11-27, finding 10).
 */
export function smtpMailer(
  url: string | undefined,
  from: string,
  options: { allowPlainAuth: boolean; timeoutsMs?: typeof SMTP_TIMEOUTS_MS },
): Mailer | null {
  if (!url) return null;
  const parsed = new URL(url);
  const timeouts = options.timeoutsMs ?? SMTP_TIMEOUTS_MS;
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: timeouts.connection,
    greetingTimeout: timeouts.greeting,
    socketTimeout: timeouts.socket,
    requireTLS: parsed.protocol === 'smtp:' && parsed.username !== '' && !options.allowPlainAuth,
  });
  return {
    about: { server: parsed.port ? `${parsed.hostname}:${parsed.port}` : parsed.hostname, from },
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}
