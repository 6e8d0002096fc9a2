import type { Client } from 'openapi-fetch';
import { write, type ReviewOptions, type ReviewReadOptions } from './call-options.ts';
import type { paths } from './openapi.ts';
import { settle, type QueryOf, type Reply, type RequestBody, type SuccessBody } from './reply.ts';

/**
 * The staff side of the console (docs/API.md, "Staff in the console"), with a dashboard token of any member: the
 * roster with each week's progress and who is on duty, and one staff member's page. `workspaceId` names the
 * workspace (needed when the member belongs to several).
 */
export function staffOperations(api: Client<paths>) {
  return {
    listStaff: (query: QueryOf<'listStaff'> = {}, o: ReviewReadOptions = {}): Promise<Reply<SuccessBody<'listStaff'>>> =>
      settle(
        api.GET('/v1/staff', {
          params: { query, header: { 'x-correlation-id': o.correlationId, 'x-service-workspace-id': o.workspaceId } },
          signal: o.signal,
        }),
      ),
    getStaffMember: (
      staffId: string,
      query: QueryOf<'getStaffMember'> = {},
      o: ReviewReadOptions = {},
    ): Promise<Reply<SuccessBody<'getStaffMember'>>> =>
      settle(
        api.GET('/v1/staff/{staffId}', {
          params: {
            path: { staffId },
            query,
            header: { 'x-correlation-id': o.correlationId, 'x-service-workspace-id': o.workspaceId },
          },
          signal: o.signal,
        }),
      ),
    /** A new rank for a staff member (permission `staff.rank`), synced to the Roblox group when it is configured. */
    changeStaffRank: (
      staffId: string,
      body: RequestBody<'changeStaffRank'>,
      o: ReviewOptions = {},
    ): Promise<Reply<SuccessBody<'changeStaffRank'>>> => {
      const { key, header, signal } = write(o);
      const headers = { ...header, 'x-service-workspace-id': o.workspaceId };
      return settle(api.POST('/v1/staff/{staffId}/rank', { params: { path: { staffId }, header: headers }, body, signal }), key);
    },
    /** A staff member's rank changes, newest first, each with its sync status. */
    listStaffRankChanges: (staffId: string, o: ReviewReadOptions = {}): Promise<Reply<SuccessBody<'listStaffRankChanges'>>> =>
      settle(
        api.GET('/v1/staff/{staffId}/rank-changes', {
          params: { path: { staffId }, header: { 'x-correlation-id': o.correlationId, 'x-service-workspace-id': o.workspaceId } },
          signal: o.signal,
        }),
      ),
  };
}
