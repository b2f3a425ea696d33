// Alert e-mails go out apart from the evaluation that queued them, one at a time, each try bounded
// by the SMTP time-outs: a mail server that stalls or refuses delays only e-mails. One that fails
// is tried again with the webhooks' backoff, then marked failed with the server's reason (security
// probe 2026-11-27, finding 4: a stalled server stopped alert evaluation and shutdown, and an
// e-mail that failed once was never sent).

import { WEBHOOK_BACKOFF_SECONDS } from '@cm/contracts/alerts.ts';
import type { SqlRunner } from '../../db/client.ts';
import { alertEmail } from './alert-text.ts';
import { claimDueEmails, recordEmailAttempt } from './alerts.queries.ts';
import type { Mailer } from './mailer.ts';

/** E-mails claimed per run at most (the rest wait for the next). */
const EMAILS_PER_RUN = 100;

/** Sends the e-mails due at `nowMs` until done or `stopping()`; answers how many were sent. */
export async function sendDueEmails(
  db: SqlRunner,
  mailer: Mailer,
  nowMs: number,
  stopping: () => boolean = () => false,
): Promise<number> {
  const due = await claimDueEmails(db, new Date(nowMs), EMAILS_PER_RUN);
  let sent = 0;
  for (const row of due) {
    // Those not tried are claimed for a minute only: the next run takes them.
    if (stopping()) break;
    if (!row.email_to) continue;
    const { subject, text } = alertEmail(row.email_language, {
      event: row.event,
      kind: row.kind,
      threshold: row.threshold,
      meterNumber: row.meter_number,
      locationName: row.location_name,
      timeZone: row.time_zone,
      startedAt: row.started_at,
      clearedAt: row.cleared_at,
      detail: row.detail,
    });
    try {
      await mailer.send({ to: row.email_to, subject, text });
      await recordEmailAttempt(db, row.id, { status: 'sent', error: null, nextAt: null });
      sent++;
    } catch (error) {
      const wait = WEBHOOK_BACKOFF_SECONDS[row.email_attempts];
      await recordEmailAttempt(db, row.id, {
        status: wait === undefined ? 'failed' : 'pending',
        error: error instanceof Error ? error.message : String(error),
        nextAt: wait === undefined ? null : new Date(Date.now() + wait * 1000),
      });
    }
  }
  return sent;
}
