/** Example requests and responses of the shift routes, as the OpenAPI document shows them. */

export const EXAMPLE_SHIFT_ID = '0b7e5a52-3c1d-4f6e-9a8b-2c4d6e8f1a3b';
const STAFF = { id: '6f1d2c3b-4a5e-4f70-8a9b-0c1d2e3f4a5b', displayName: 'Alice', gameUserId: '1001' };
const STARTED_AT = '2026-03-11T12:00:00.000Z';

export const startBodyExample = {
  gameUserId: '1001',
  universeId: '42',
  placeId: '7',
  serverId: 'srv-eu-1',
  startedAt: STARTED_AT,
};

export const startResponseExample = {
  data: {
    shift: { id: EXAMPLE_SHIFT_ID, status: 'active', startedAt: STARTED_AT, lastHeartbeatAt: STARTED_AT },
    existing: false,
  },
};

export const heartbeatBodyExample = { recordedAt: '2026-03-11T12:05:00.000Z', serverId: 'srv-eu-1' };

export const heartbeatResponseExample = {
  data: { shift: { id: EXAMPLE_SHIFT_ID, status: 'active', lastHeartbeatAt: '2026-03-11T12:05:00.000Z' } },
};

export const stopBodyExample = { endedAt: '2026-03-11T13:30:15.000Z', reason: 'player_left' };

export const stopResponseExample = {
  data: {
    shift: {
      id: EXAMPLE_SHIFT_ID,
      status: 'completed',
      startedAt: STARTED_AT,
      endedAt: '2026-03-11T13:30:15.000Z',
      durationSeconds: 5415,
      minutes: 90,
      endReason: 'player_left',
    },
  },
};

const activeShift = {
  id: EXAMPLE_SHIFT_ID,
  status: 'active',
  startedAt: STARTED_AT,
  lastHeartbeatAt: '2026-03-11T12:05:00.000Z',
  elapsedSeconds: 420,
  universeId: '42',
  placeId: '7',
  serverId: 'srv-eu-1',
  staff: STAFF,
};

export const activeListResponseExample = {
  data: {
    shifts: [activeShift],
    nextCursor: { cursorStartedAt: STARTED_AT, cursorId: EXAMPLE_SHIFT_ID },
  },
};

export const shiftDetailResponseExample = {
  data: {
    shift: {
      id: EXAMPLE_SHIFT_ID,
      status: 'completed',
      startedAt: STARTED_AT,
      lastHeartbeatAt: '2026-03-11T12:10:00.000Z',
      universeId: '42',
      placeId: '7',
      serverId: 'srv-eu-1',
      staff: STAFF,
      endedAt: '2026-03-11T12:10:00.000Z',
      durationSeconds: 600,
      minutes: 10,
      endReason: 'heartbeat_timeout',
    },
  },
};
