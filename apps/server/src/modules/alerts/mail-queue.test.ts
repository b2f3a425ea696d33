import net, { type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@cm/contracts/enums.ts';
import { WEBHOOK_BACKOFF_SECONDS } from '@cm/contracts/alerts.ts';
import { insertLocation, insertMeter, insertReadings } from '../../test/factories.ts';
import { createTestApp, insertUser, type TestApp } from '../../test/test-app.ts';
import { sendDueEmails } from './mail-queue.ts';
import { smtpMailer } from './mailer.ts';

// Security probe 2026-11-27, findings 4 and 10: a stalled SMTP server stopped alert evaluation and
// shutdown (still running 150 s after SIGTERM), an alert e-mail that failed once was never sent
// again, and the SMTP password went in clear when the server offered no STARTTLS.

const HOUR = 3_600_000;
const QUARTER = 15 * 60_000;

/** A meter at a new location that went silent 30 hours ago, and a "silent 6 h" rule for it: the next evaluation fires. */
async function silentMeter(t: TestApp, admin: string, name: string): Promise<void> {
  const location = await insertLocation(t.db, name);
  const meter = await insertMeter(t.db, {
    meterNumber: `EM-${name}`,
    locationId: location,
    meterInd: 1,
    installedAt: new Date(Date.now() - 40 * 24 * HOUR),
  });
  const last = Math.floor((Date.now() - 30 * HOUR) / QUARTER) * QUARTER;
  await insertReadings(t.db, meter, [
    [last - QUARTER, 100],
    [last, 101],
  ]);
  const rule = await t.call('POST', '/api/admin/alert-rules', {
    token: admin,
    body: { locationId: location, kind: 'silent', threshold: 6 },
  });
  expect(rule.statusCode).toBe(201);
}

async function adminOf(t: TestApp): Promise<string> {
  await insertUser(t.db, { email: 'admin@mail.cm', password: 'Admin!mail-1', role: Role.Admin });
  return (await t.login('admin@mail.cm', 'Admin!mail-1')).token;
}

const evaluate = (t: TestApp, token: string) => t.call('POST', '/api/admin/alerts/evaluate', { token });

/** A mail server that accepts connections and stalls: `silent` never greets; `afterData` takes the message and never answers it. */
async function stallingServer(kind: 'silent' | 'afterData') {
  const held: net.Socket[] = [];
  if (kind === 'silent') {
    const server = net.createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      port: (server.address() as AddressInfo).port,
      reached: () => held.length > 0,
      stop: async () => {
        for (const socket of held) socket.destroy();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }
  let messages = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // Closing at the end does not wait for the stalled client.
    closeTimeout: 100,
    onData(stream) {
      messages += 1;
      // Reads the message and never says 250: the probe's sink "stalls after DATA" (N32).
      stream.resume();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    reached: () => messages > 0,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(['silent', 'afterData'] as const)('a mail server that stalls (%s)', (kind) => {
  let tarpit: Awaited<ReturnType<typeof stallingServer>>;
  let t: TestApp | undefined;

  beforeAll(async () => {
    tarpit = await stallingServer(kind);
  });
  afterAll(async () => {
    await t?.close();
    await tarpit.stop();
  });

  it('holds back neither the next evaluation nor shutdown (done within 10 s)', async () => {
    t = await createTestApp({
      CM_SMTP_URL: `smtp://127.0.0.1:${tarpit.port}`,
      CM_ALERT_EVERY_SECONDS: '0',
    });
    const admin = await adminOf(t);
    await silentMeter(t, admin, 'First');
    const first = await evaluate(t, admin);
    expect(first.json()).toMatchObject({ fired: 1, emailed: 1 });
    await expect.poll(() => tarpit.reached()).toBe(true);
    // The e-mail hangs in the tarpit; a second rule still fires at once.
    await silentMeter(t, admin, 'Second');
    const started = Date.now();
    const second = await evaluate(t, admin);
    expect(second.json()).toMatchObject({ fired: 1, emailed: 1 });
    expect(Date.now() - started).toBeLessThan(5_000);
    const closing = Date.now();
    const app = t;
    t = undefined;
    await app.close();
    expect(Date.now() - closing).toBeLessThan(10_000);
  });
});

/** An SMTP server that refuses the first message (451, as a greylisting server does) and takes the rest. */
async function refusingOnce(received: string[]): Promise<{ url: string; stop(): Promise<void> }> {
  let refusals = 1;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      stream.resume();
      stream.on('end', () => {
        if (refusals-- > 0) return done(Object.assign(new Error('Try again later'), { responseCode: 451 }));
        received.push(...session.envelope.rcptTo.map((to) => to.address));
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('an alert e-mail that cannot go out at once', () => {
  let t: TestApp;
  let sink: Awaited<ReturnType<typeof refusingOnce>>;
  let admin: string;
  const mails: string[] = [];

  beforeAll(async () => {
    sink = await refusingOnce(mails);
    // No SMTP server configured: evaluation only queues the e-mails, sent below by hand.
    t = await createTestApp({ CM_ALERT_EVERY_SECONDS: '0' });
    admin = await adminOf(t);
    // Without a mail server nobody is e-mailed by default (issue 34.14): this admin asked for it.
    await t.call('PUT', '/api/alerts/preferences', {
      token: admin,
      body: { items: [{ kind: 'silent', inApp: true, email: true }] },
    });
  });
  afterAll(async () => {
    await t.close();
    await sink.stop();
  });

  it('is tried again after the backoff and sent', async () => {
    await silentMeter(t, admin, 'Retry');
    expect((await evaluate(t, admin)).json()).toMatchObject({ fired: 1 });
    const mailer = smtpMailer(sink.url, 'CM <cm@test.cm>', { allowPlainAuth: false });
    if (!mailer) throw new Error('no mailer');
    const now = Date.now();
    expect(await sendDueEmails(t.db, mailer, now)).toBe(0);
    const [tried] = await t.db.query<{
      email_status: string;
      email_attempts: number;
      email_last_error: string;
      wait_s: number;
    }>(
      `SELECT email_status, email_attempts, email_last_error,
              extract(epoch FROM email_next_at - now())::float8 AS wait_s FROM alert_notifications`,
    );
    expect(tried).toMatchObject({ email_status: 'pending', email_attempts: 1 });
    expect(tried?.email_last_error).toMatch(/451/);
    // The first wait of the backoff (60 s), give or take the test's own time.
    expect(tried?.wait_s).toBeGreaterThan(WEBHOOK_BACKOFF_SECONDS[0] - 10);
    expect(tried?.wait_s).toBeLessThanOrEqual(WEBHOOK_BACKOFF_SECONDS[0]);
    // Not due yet; due after the wait.
    expect(await sendDueEmails(t.db, mailer, now + 1_000)).toBe(0);
    expect(await sendDueEmails(t.db, mailer, now + (WEBHOOK_BACKOFF_SECONDS[0] + 1) * 1000)).toBe(1);
    expect(mails).toEqual(['admin@mail.cm']);
    const [done] = await t.db.query<{ email_status: string; email_attempts: number }>(
      'SELECT email_status, email_attempts FROM alert_notifications',
    );
    expect(done).toEqual({ email_status: 'sent', email_attempts: 2 });
  });

  it('waits out a mail server nobody answers at, then is sent (probe N37)', async () => {
    // A port nobody listens on: taken and closed again, so the connection is refused at once.
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await silentMeter(t, admin, 'Outage');
    expect((await evaluate(t, admin)).json()).toMatchObject({ fired: 1 });
    const down = smtpMailer(`smtp://127.0.0.1:${port}`, 'CM <cm@test.cm>', { allowPlainAuth: false });
    const up = smtpMailer(sink.url, 'CM <cm@test.cm>', { allowPlainAuth: false });
    if (!down || !up) throw new Error('no mailer');
    const now = Date.now();
    expect(await sendDueEmails(t.db, down, now)).toBe(0);
    const [tried] = await t.db.query<{
      email_status: string;
      email_attempts: number;
      email_last_error: string;
    }>(
      `SELECT email_status, email_attempts, email_last_error FROM alert_notifications
       WHERE email_status <> 'sent'`,
    );
    expect(tried).toMatchObject({ email_status: 'pending', email_attempts: 1 });
    expect(tried?.email_last_error).toMatch(/ECONNREFUSED|connect/i);
    // The server is back: after the backoff the e-mail goes out, once.
    const before = mails.length;
    expect(await sendDueEmails(t.db, up, now + (WEBHOOK_BACKOFF_SECONDS[0] + 1) * 1000)).toBe(1);
    expect(mails.length - before).toBe(1);
  });
});

describe('SMTP credentials', () => {
  let server: SMTPServer;
  let port = 0;
  const logins: string[] = [];

  beforeAll(async () => {
    // Offers AUTH and no STARTTLS, as the probe's sink did.
    server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      onAuth(auth, _session, done) {
        logins.push(auth.username ?? '');
        done(null, { user: auth.username });
      },
      onData(stream, _session, done) {
        stream.resume();
        stream.on('end', () => done());
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const message = { to: 'x@test.cm', subject: 'Test', text: 'Test' };

  it('are not sent to a server that offers no STARTTLS', async () => {
    const mailer = smtpMailer(`smtp://cmmailer:secret-pass@127.0.0.1:${port}`, 'cm@test.cm', {
      allowPlainAuth: false,
    });
    await expect(mailer?.send(message)).rejects.toThrow(/STARTTLS/);
    expect(logins).toEqual([]);
  });

  it('go in clear only when explicitly allowed (CM_SMTP_ALLOW_PLAIN_AUTH)', async () => {
    const mailer = smtpMailer(`smtp://cmmailer:secret-pass@127.0.0.1:${port}`, 'cm@test.cm', {
      allowPlainAuth: true,
    });
    await mailer?.send(message);
    expect(logins).toEqual(['cmmailer']);
  });
});
