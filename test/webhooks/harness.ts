import { Dispatcher, type ClaimRound, type DispatcherDeps } from '../../src/webhooks/dispatcher.ts';
import { newId } from '../../src/shared/ids.ts';
import { generateWebhookSecret } from '../../src/provisioning/webhooks.ts';
import type { TestContext } from '../helpers/app.ts';
import { buildFixture, seed } from '../helpers/fixtures.ts';
import { ManualTimer, WAIT_CAP_MS } from './manual-timer.ts';
import { SILENT_LOG, testDispatcherSettings, threadsStarted, type Receiver } from './receiver.ts';

/**
 * A dispatcher on the context's store and clock whose timer only the test moves. Its loop is not started: the
 * test claims (`deliverDue`) when it wants deliveries sent, so nothing happens behind its back.
 */
export function testDispatcher(
  ctx: TestContext,
  deps: Partial<Omit<DispatcherDeps, 'store' | 'clock'>> = {},
): { readonly dispatcher: Dispatcher; readonly timer: ManualTimer } {
  const timer = deps.timer instanceof ManualTimer ? deps.timer : new ManualTimer();
  const dispatcher = new Dispatcher({
    log: SILENT_LOG,
    settings: testDispatcherSettings(),
    ...deps,
    store: ctx.store,
    clock: ctx.clock,
    timer,
  });
  return { dispatcher, timer };
}

/** `promise`, or a failure naming `what` after WAIT_CAP_MS. */
export function capped<T>(promise: Promise<T>, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const cap = setTimeout(() => reject(new Error(`${what} took more than ${WAIT_CAP_MS} ms`)), WAIT_CAP_MS);
    promise.then(
      (value) => {
        clearTimeout(cap);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(cap);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/**
 * Claims what is due at the clock's time, sends it, and resolves once every answer is back and recorded; again
 * while a claim took something (a claim holds at most four times the slots). Returns the deliveries claimed.
 * A sending thread still starting is waited for first, without the cap.
 */
export async function deliverDue(dispatcher: Dispatcher): Promise<number> {
  await threadsStarted();
  let claimed = 0;
  for (;;) {
    const round: ClaimRound = await dispatcher.claim();
    await capped(dispatcher.settled(), 'sending what was claimed');
    claimed += round.claimed;
    if (round.claimed === 0) return claimed;
  }
}

/** Seeds a fixture whose workspace has one endpoint (every event type) at `path` of `receiver`. */
export async function seedWithEndpoint(ctx: TestContext, receiver: Receiver, path: string) {
  const fixture = buildFixture();
  const secret = generateWebhookSecret();
  const endpointId = newId();
  fixture.workspace.webhooks = [{ id: endpointId, url: receiver.endpoint(path, secret), events: ['*'], secret }];
  await seed(ctx, fixture);
  return { fixture, secret, endpointId };
}
