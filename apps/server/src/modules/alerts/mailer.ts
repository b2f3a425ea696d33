import nodemailer from 'nodemailer';

/** Sends one e-mail; rejects with the SMTP server's reason. */
export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>;
}

/** A mailer over SMTP (`smtp://user:pass@host:port`, `smtps://…`), or null without a URL. */
export function smtpMailer(url: string | undefined, from: string): Mailer | null {
  if (!url) return null;
  const transport = nodemailer.createTransport(url);
  return {
    async send(message) {
      await transport.sendMail({ from, ...message });
    },
  };
}
