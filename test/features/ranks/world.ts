import type { LightMyRequestResponse } from 'fastify';
import { randomBase62 } from '../../../src/shared/ids.ts';
import type { ProvisioningDocument } from '../../../src/provisioning/apply.ts';
import type { Inject } from '../../helpers/contract.ts';

export const WORKSPACE = '7a1f0c52-3b4d-4e6f-8a9b-0c1d2e3f4a01';
export const OTHER_WORKSPACE = '7a1f0c52-3b4d-4e6f-8a9b-0c1d2e3f4a02';
export const FORM = '7a1f0c52-3b4d-4e6f-8a9b-0c1d2e3f4a10';
export const MANAGER = 'user-rank-manager';
export const VIEWER = 'user-rank-viewer';
export const OUTSIDER = 'user-rank-outsider';
export const GROUP_ID = '4200001';
export const API_KEY = 'ocak_SECRET_roblox_api_key_0123456789abcdef';
export const WEBHOOK_SECRET = 'roblox_erasure_SECRET_5f4e3d2c1b0a';

export const RANKS = [
  { name: 'Trainee', roleId: '101', order: 10 },
  { name: 'Moderator', roleId: '102', order: 20 },
  { name: 'Senior Moderator', roleId: '103', order: 30 },
  { name: 'Helper', order: 15 },
  { name: 'Owner', roleId: '255', order: 255, assignable: false },
];

export function staffMember(n: number, rank: string | null = 'Moderator') {
  return {
    id: `7a1f0c52-3b4d-4e6f-8a9b-${String(n).padStart(12, '0')}`,
    displayName: `Staff ${n}`,
    gameUserId: String(5_000_000 + n),
    gameUsername: `staff${n}`,
    ...(rank === null ? {} : { rank }),
    status: 'active' as const,
  };
}

/** A workspace with a group, an API key aimed at `apiUrl`'s fake, its ranks, a form with an entry rank, members. */
export function rankDocument(options: { staff?: ReturnType<typeof staffMember>[]; roblox?: boolean } = {}): ProvisioningDocument {
  return {
    workspaces: [
      {
        id: WORKSPACE,
        name: 'Ranks',
        slug: 'ranks',
        ...(options.roblox === false ? {} : { roblox: { groupId: GROUP_ID, apiKey: API_KEY, webhookSecret: WEBHOOK_SECRET } }),
        ranks: RANKS,
        members: [
          { userId: MANAGER, permissions: ['staff.rank', 'applications.decide', 'staff.create'] },
          { userId: VIEWER, permissions: [] },
        ],
        staff: options.staff ?? [staffMember(1), staffMember(2, 'Owner'), staffMember(3, null)],
        forms: [
          {
            id: FORM,
            name: 'Moderators',
            slug: 'moderators',
            status: 'open',
            entryRank: 'Trainee',
            questions: [{ id: 'why', label: 'Why?', type: 'short_text' }],
          },
        ],
      },
      { id: OTHER_WORKSPACE, name: 'Other', slug: 'other', members: [{ userId: OUTSIDER, permissions: ['staff.rank'] }] },
    ],
  };
}

export function newKey(): string {
  return `key-${randomBase62(20)}`;
}

export function changeRank(
  inject: Inject,
  token: string,
  staffId: string,
  body: unknown,
  options: { key?: string; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return inject({
    method: 'POST',
    url: `/v1/staff/${staffId}/rank`,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': options.key ?? newKey(),
      ...options.headers,
    },
    payload: JSON.stringify(body),
  });
}

export function rankChanges(inject: Inject, token: string, staffId: string): Promise<LightMyRequestResponse> {
  return inject({ method: 'GET', url: `/v1/staff/${staffId}/rank-changes`, headers: { authorization: `Bearer ${token}` } });
}
