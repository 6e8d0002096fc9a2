import { APPLICATION, NOW, SHIFT_ROW, STAFF, WORKSPACE, type Samples } from '../db/samples.ts';
import * as provisioning from './repository.ts';
import { DEPARTMENTS, SUBMISSIONS, WORKSPACES } from './upsert.ts';

const WORKSPACE_ROW = {
  id: WORKSPACE,
  name: 'Workspace',
  slug: 'workspace',
  timezone: 'UTC',
  settings: '{}',
  create_staff_profile_on_accept: 0,
  weekly_required_minutes: null,
  chat_guild_id: null,
  chat_status: null,
  chat_connected_at: null,
  created_at: NOW,
  updated_at: NOW,
};
const SUBMISSION_ROW = {
  id: 'submission-1',
  workspace_id: WORKSPACE,
  status: 'accepted',
  score: null,
  reviewer_notes: null,
  applicant: '{"gameUserId":"2001","gameUsername":null,"displayName":null,"chatUserId":null}',
  answers: '[]',
  created_at: NOW,
  reviewed_at: NOW,
  accepted_at: NOW,
  rejected_at: null,
  staff_profile_id: null,
  updated_at: NOW,
  form_id: 'form-1',
  environment: 'live' as const,
  game_user_id: '2001',
};

export const samples = {
  findWorkspacesById: (db) => provisioning.findWorkspacesById(db, [WORKSPACE]),
  findWorkspacesBySlug: (db) => provisioning.findWorkspacesBySlug(db, ['workspace']),
  findOwners: (db) => provisioning.findOwners(db, 'departments', ['department-1', 'department-2']),
  findStaffById: (db) => provisioning.findStaffById(db, [STAFF]),
  findStaffByGameUsers: (db) => provisioning.findStaffByGameUsers(db, WORKSPACE, ['1001', '1002']),
  findMembersByChatUsers: (db) => provisioning.findMembersByChatUsers(db, WORKSPACE, ['5551', '5552']),
  findKeysById: (db) => provisioning.findKeysById(db, ['key-1']),
  findKeysByHash: (db) => provisioning.findKeysByHash(db, ['key-hash']),
  findPendingSubmissions: (db) => provisioning.findPendingSubmissions(db, ['form-1']),
  findFormQuestions: (db) => provisioning.findFormQuestions(db, ['form-1']),
  findEndpointWorkspaces: (db) => provisioning.findEndpointWorkspaces(db, ['endpoint-1']),
  releaseWorkspaceSlug: (db) => provisioning.releaseWorkspaceSlug(db, WORKSPACE),
  releaseGameUserId: (db) => provisioning.releaseGameUserId(db, STAFF),
  upsertBatch: {
    'workspaces, overwritten when something differs': (db) => provisioning.upsertBatch(db, WORKSPACES, [WORKSPACE_ROW]),
    'departments, overwritten': (db) =>
      provisioning.upsertBatch(db, DEPARTMENTS, [
        { id: 'department-1', workspace_id: WORKSPACE, name: 'Moderation', weekly_required_minutes: 120 },
      ]),
    'submissions, inserted when absent': (db) => provisioning.upsertBatch(db, SUBMISSIONS, [SUBMISSION_ROW]),
  },
  insertKeyUnlessExists: (db) =>
    provisioning.insertKeyUnlessExists(db, {
      id: 'key-1',
      application_id: APPLICATION,
      environment: 'test' as const,
      key_hash: 'key-hash',
      scopes: '["activity:write"]',
      revoked: 0,
      expires_at: null,
      created_at: NOW,
    }),
  updateKey: {
    'scopes only': (db) => provisioning.updateKey(db, 'key-1', { scopes: '["activity:read"]' }),
    'scopes, revoked and expiry': (db) =>
      provisioning.updateKey(db, 'key-1', { scopes: '["activity:read"]', revoked: 1, expires_at: NOW }),
  },
  insertShiftsUnlessExist: (db) =>
    provisioning.insertShiftsUnlessExist(db, [{ ...SHIFT_ROW, status: 'completed', ended_at: NOW, end_reason: 'manual' }]),
  insertEndpoint: (db) =>
    provisioning.insertEndpoint(db, {
      id: 'endpoint-1',
      workspace_id: WORKSPACE,
      url: 'https://example.com/hooks',
      events: '["*"]',
      enabled: 1,
      secret: 'whsec_c2FtcGxlLXNlY3JldC1zYW1wbGUtc2VjcmV0',
      created_at: NOW,
      updated_at: NOW,
    }),
  updateEndpoint: (db) =>
    provisioning.updateEndpoint(db, 'endpoint-1', { url: 'https://example.com/hooks', events: '["*"]', enabled: 1, updated_at: NOW }),
} satisfies Samples<typeof provisioning>;
