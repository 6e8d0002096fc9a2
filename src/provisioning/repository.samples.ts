import { APPLICATION, NOW, STAFF, WORKSPACE, type Samples } from '../db/samples.ts';
import * as provisioning from './repository.ts';

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
  upsertDepartments: (db) =>
    provisioning.upsertDepartments(db, [{ id: 'department-1', workspace_id: WORKSPACE, name: 'Moderation', weekly_required_minutes: 120 }]),
  upsertMembers: (db) =>
    provisioning.upsertMembers(db, [{ workspace_id: WORKSPACE, user_id: 'user-1', permissions: '["applications.read"]', chat_user_id: null }]),
  upsertApplications: (db) =>
    provisioning.upsertApplications(db, [
      { id: APPLICATION, workspace_id: WORKSPACE, name: 'Game server', approved: 1, allowed_universe_ids: '[]', features: '[]' },
    ]),
  upsertForms: (db) =>
    provisioning.upsertForms(db, [
      {
        id: 'form-1',
        workspace_id: WORKSPACE,
        name: 'Moderator',
        slug: 'moderator',
        status: 'open',
        description: null,
        department_id: null,
        cooldown_days: 0,
        questions: '[]',
        entry_rank: null,
        created_at: NOW,
        updated_at: NOW,
      },
    ]),
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
