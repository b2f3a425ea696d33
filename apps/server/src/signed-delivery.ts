// One home for what CM POSTs to outsiders and tries again until they take it: alert webhooks
// (alerts/webhooks.ts) and ESPI notifications to connected apps (connect/espi-notifications.ts).
// Each is signed the same way, sent through the outbound policy, and retried on the same backoff.
//
// Signature: `X-CM-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the
// receiver's key>`; a receiver recomputes it and refuses an old `t` (replays).

import { createHmac } from 'node:crypto';
import { WEBHOOK_BACKOFF_SECONDS } from '@cm/contracts/alerts.ts';
import { outboundFailure, type OutboundPolicy } from './outbound.ts';

/** How long a receiver may take to answer. */
const TIMEOUT_MS = 10_000;

/** The signature header of `body` sent at `unixSeconds`. */
function signature(secret: string, unixSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** What one try of a delivery came to, and what becomes of the delivery. */
export interface DeliveryOutcome {
  isOk: boolean;
  status: 'pending' | 'delivered' | 'failed';
  /** `HTTP 200`, `HTTP 500`, `timed out after 10 s`, `refused: address not allowed`… */
  result: string;
  /** When to try again (null: delivered, or given up). */
  nextAttemptAt: Date | null;
}

/**
 * POSTs `body` to `url`, signed with `key` (X-CM-Signature), only to an address `outbound` allows
 * (checked as it connects; redirects are not followed: a 3xx is the receiver's answer, and a
 * failure). `attempts`: the delivery's tries before this one; after the last of
 * WEBHOOK_BACKOFF_SECONDS' waits it is given up.
 */
export async function sendSigned(
  outbound: OutboundPolicy,
  delivery: {
    url: string;
    key: string;
    body: string;
    contentType: string;
    userAgent: string;
    headers: Record<string, string>;
    attempts: number;
  },
): Promise<DeliveryOutcome> {
  const sentAt = Math.floor(Date.now() / 1000);
  let result: string;
  let isOk = false;
  try {
    const status = await outbound.post(
      delivery.url,
      {
        'Content-Type': delivery.contentType,
        'User-Agent': delivery.userAgent,
        ...delivery.headers,
        'X-CM-Signature': signature(delivery.key, sentAt, delivery.body),
      },
      delivery.body,
      TIMEOUT_MS,
    );
    isOk = status >= 200 && status < 300;
    result = `HTTP ${status}`;
  } catch (error) {
    result = outboundFailure(error, TIMEOUT_MS);
  }
  const wait = WEBHOOK_BACKOFF_SECONDS[delivery.attempts];
  if (isOk) return { isOk, status: 'delivered', result, nextAttemptAt: null };
  if (wait === undefined) return { isOk, status: 'failed', result, nextAttemptAt: null };
  return { isOk, status: 'pending', result, nextAttemptAt: new Date(Date.now() + wait * 1000) };
}
