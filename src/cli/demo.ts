import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { systemClock } from '../shared/clock.ts';
import { loadConfig, type ConfigOverrides } from '../shared/config.ts';
import { newId } from '../shared/ids.ts';
import { applyProvisioning } from '../provisioning/apply.ts';
import { createConsoleService } from '../features/console/service.ts';
import { catchSignals, startServer } from '../server.ts';
import { banner } from './demo-banner.ts';
import { DEMO, DEMO_CREDENTIALS_HOURS, DEMO_DATABASE_URL, demoDocument } from './demo-document.ts';
import { freeNoticeSlot, startLiveShift, submitSample } from './demo-session.ts';

const HOUR_MS = 3_600_000;

/** The `--port` and `--database-url` that point `console-link --demo` at this run, when they differ from its defaults. */
function linkOptions(port: string, databaseUrl: string): string {
  const portOption = port === (process.env.PORT ?? '3000') ? '' : ` --port ${port}`;
  const databaseOption = databaseUrl === (process.env.DATABASE_URL ?? DEMO_DATABASE_URL) ? '' : ` --database-url '${databaseUrl}'`;
  return `${portOption}${databaseOption}`;
}

/**
 * Provisions a demo workspace (a new test key each run, valid for a day), sends a sample application through its
 * form, keeps one shift under way, prints credentials, console links and examples, then serves. Request logs are
 * quiet (`warn`) unless LOG_LEVEL says otherwise, so the printed key and links stay readable.
 */
export async function runDemo(overrides: ConfigOverrides): Promise<number> {
  const jwtSecret = process.env.JWT_SECRET ?? randomBytes(32).toString('base64url');
  const config = loadConfig(
    { ...process.env, JWT_SECRET: jwtSecret, GATEWAY_ENV: process.env.GATEWAY_ENV ?? 'demo', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    { ...overrides, databaseUrl: overrides.databaseUrl ?? process.env.DATABASE_URL ?? DEMO_DATABASE_URL },
  );
  const signals = catchSignals();
  const server = await startServer(config);
  let stopShift = async (): Promise<void> => undefined;
  try {
    const now = systemClock.now();
    const expiresAt = new Date(now + DEMO_CREDENTIALS_HOURS * HOUR_MS);
    const result = await applyProvisioning(server.store.db, demoDocument(newId(), expiresAt.toISOString(), now), systemClock);
    const apiKey = result.keys[0]?.secret;
    if (!apiKey) throw new Error('demo provisioning returned no key');
    const sign = (userId: string) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(userId)
        .setIssuedAt()
        .setExpirationTime(`${DEMO_CREDENTIALS_HOURS}h`)
        .sign(new TextEncoder().encode(jwtSecret));
    const [token, managerToken] = await Promise.all([sign(DEMO.userId), sign(DEMO.managerId)]);
    const inject = server.app.inject.bind(server.app);
    const run = String(Math.floor(now / 1000));
    const sampleSubmissionId = await submitSample(inject, apiKey, run);
    const notice = await freeNoticeSlot(inject, apiKey, now);
    const heartbeatMs = Math.min(30_000, (config.shiftTimeoutSeconds * 1000) / 3);
    const live = await startLiveShift(inject, apiKey, heartbeatMs);
    stopShift = () => live.stop();

    const base = server.address.replace('0.0.0.0', '127.0.0.1');
    const consoleSignIn = createConsoleService({ store: server.store, clock: systemClock, config });
    const link = async (userId: string) => (await consoleSignIn.linkForUser(userId, config.publicBaseUrl ?? base)).url;
    const [reviewerLink, managerLink] = [await link(DEMO.userId), await link(DEMO.managerId)];
    const values = {
      base,
      databaseUrl: config.databaseUrl,
      linkOptions: linkOptions(new URL(base).port, config.databaseUrl),
      apiKey,
      token,
      managerToken,
      reviewerLink,
      managerLink,
      sampleSubmissionId,
      run,
      notice,
    };
    process.stdout.write(banner(values));
  } catch (error) {
    await stopShift();
    await server.stop();
    throw error;
  }
  await signals.stopOn({
    ...server,
    stop: async () => {
      await stopShift();
      await server.stop();
    },
  });
  return 0;
}
