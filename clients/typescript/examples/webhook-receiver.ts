// A webhook endpoint that posts the gateway's events to a staff channel: "Alice started a shift", "New application
// to Moderator application", "Time off asked for: …" (never with its reason), ... It verifies each request's signature (Standard Webhooks) before reading it, types
// the body with the client's `WebhookEvent`, announces each event once (deliveries are at least once: a retry
// has the same `webhook-id`), and answers at once: 204 when handled, 400 for a request that is not the gateway's,
// 500 when announcing failed, so the gateway tries again later.
//
//   WEBHOOK_SECRET=whsec_… PORT=8080 node webhook-receiver.js
//
// Provision the endpoint with the address it is reached at, e.g. `"webhooks": [{ "id": "…", "url":
// "https://bot.example.com/gateway-events", "events": ["*"], "secret": "whsec_…" }]`.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import type { WebhookEvent } from '@workspace-gateway/client';
import { period } from './loa.ts';

/** Bodies larger than this are refused unread (the gateway's are a few KB). */
const MAX_BODY_BYTES = 1024 * 1024;
/** How many event ids are remembered to drop repeated deliveries. */
const REMEMBERED_EVENTS = 10_000;

const who = (name: string | null | undefined): string => name ?? 'Someone';

/** The message announcing `event`, or null for events the channel does not need (review steps). */
export function announcement(event: WebhookEvent): string | null {
  switch (event.type) {
    case 'activity.shift.started':
      return `${event.data.staff.displayName} started a shift on server ${event.data.shift.serverId}.`;
    case 'activity.shift.ended': {
      const { shift, staff } = event.data;
      const why = shift.endReason === 'heartbeat_timeout' ? ' (the game server stopped reporting it)' : '';
      return `${staff.displayName} ended a shift of ${shift.minutes ?? 0} min${why}.`;
    }
    case 'application.submission.submitted': {
      const { submission } = event.data;
      return `New application from ${who(submission.applicant.displayName)} to ${submission.formName ?? 'a form'}.`;
    }
    case 'application.submission.accepted':
      return `Application ${event.data.submissionId} was accepted.`;
    case 'application.submission.rejected':
      return `Application ${event.data.submissionId} was rejected.`;
    // A notice's reason and decision note stay between the staff member and the managers (docs/TIME-OFF.md).
    case 'staff.inactivity_notice.requested': {
      const { notice } = event.data;
      return `Time off asked for: ${period(notice.startsAt, notice.endsAt)} (notice ${notice.id}); a manager will decide.`;
    }
    case 'staff.inactivity_notice.approved':
      return `Time off approved: ${period(event.data.notice.startsAt, event.data.notice.endsAt)} (notice ${event.data.notice.id}).`;
    case 'staff.inactivity_notice.denied':
      return `Time off denied: ${period(event.data.notice.startsAt, event.data.notice.endsAt)} (notice ${event.data.notice.id}).`;
    case 'staff.inactivity_notice.cancelled': {
      const { notice } = event.data;
      // Cancelling approved time off under way keeps it approved and ends it now: the staff member is back early.
      const what = notice.status === 'approved' ? 'Back early from time off' : 'Time off cancelled';
      return `${what}: ${period(notice.startsAt, notice.endsAt)} (notice ${notice.id}).`;
    }
    default:
      return null;
  }
}

async function readBody(request: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A server that verifies each delivery with `secret` and hands each new event's announcement to `post`. */
export function webhookReceiver(secret: string, post: (message: string, event: WebhookEvent) => Promise<void>): Server {
  const webhook = new Webhook(secret);
  const seen = new Set<string>();
  return createServer((request, response) => {
    const answer = (status: number) => response.writeHead(status).end();
    void (async () => {
      const body = request.method === 'POST' ? await readBody(request) : null;
      if (body === null) return answer(400);
      let event: WebhookEvent;
      try {
        // Throws unless the signature is the secret's and the timestamp within five minutes of this clock.
        event = webhook.verify(body, request.headers as Record<string, string>) as WebhookEvent;
      } catch {
        return answer(400);
      }
      if (seen.has(event.id)) return answer(204);
      const message = announcement(event);
      if (message !== null) await post(message, event);
      seen.add(event.id);
      if (seen.size > REMEMBERED_EVENTS) seen.delete(seen.values().next().value as string);
      return answer(204);
    })().catch(() => answer(500));
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) {
    process.stderr.write('usage: WEBHOOK_SECRET=whsec_… [PORT=8080] node webhook-receiver.js\n');
    process.exitCode = 2;
  } else {
    const port = Number(process.env.PORT ?? 8080);
    // Post each announcement to your chat channel here; this prints it.
    webhookReceiver(secret, async (message) => void process.stdout.write(`${message}\n`)).listen(port);
  }
}
