import { inject } from 'vitest';

export { REDIS_URL } from './prerequisites.ts';

/** Whether a Redis server answered when the run began (vitest.config.ts, test/helpers/prerequisites.ts). */
export const redisAvailable = inject('prerequisites').redis;
