/**
 * Refused provisioning documents: every invalid document gets its issue at its path and changes nothing; every
 * structural problem is reported at once; an entity never moves to another workspace.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock.ts';
import type { Store } from '../../src/db/connect.ts';
import { applyProvisioning } from '../../src/provisioning/apply.ts';
import type { ProvisioningDocument, WorkspaceDocument } from '../../src/provisioning/schema.ts';
import { DEFAULT_NOW } from '../helpers/app.ts';
import { buildFixture } from '../helpers/fixtures.ts';
import { STORE_KINDS } from '../helpers/stores.ts';
import { at, INVALID_CASES, rejection, withProvisionedStore, type BaseFixture } from './documents.ts';
import { dumpDatabase } from './dump.ts';

describe.each(STORE_KINDS)('provisioning refusals (%s)', (kind) => {
  let store: Store;
  let clock: ManualClock;
  let base: BaseFixture;

  const apply = (document: unknown) => applyProvisioning(store.db, document, clock);

  withProvisionedStore(kind, (opened, provisioned) => {
    store = opened;
    base = provisioned;
  });
  beforeEach(() => {
    clock = new ManualClock(DEFAULT_NOW);
  });

  it.each(INVALID_CASES)('rejects $name at $path and changes nothing', async ({ path, message, build }) => {
    const document = build(buildFixture(), base);
    const before = await dumpDatabase(store.db);

    const error = await rejection(apply(document));

    expect(error.issues).toContainEqual({ path, message: expect.stringMatching(message) });
    expect(error.message).toContain(path);
    expect(await dumpDatabase(store.db)).toEqual(before);
  });

  it('reports every structural problem at once', async () => {
    const fixture = buildFixture();
    Object.assign(fixture.staff.alice, { status: 'retired', gameUserId: 1001 });
    delete (fixture.workspace as Partial<WorkspaceDocument>).name;
    const error = await rejection(apply(fixture.document));
    expect(error.issues.map((issue) => issue.path).sort()).toEqual([
      '$.workspaces[0].name',
      '$.workspaces[0].staff[0].gameUserId',
      '$.workspaces[0].staff[0].status',
    ]);
  });

  it('a cross-workspace id reuse is rejected even next to valid changes of the owning workspace', async () => {
    const fixture = buildFixture();
    await apply(fixture.document);
    const before = await dumpDatabase(store.db);
    const document: ProvisioningDocument = structuredClone(base.document);
    at(document.workspaces, 0).name = 'Renamed meanwhile';
    at(at(document.workspaces, 1).staff, 0).id = fixture.ids.staff.alice;

    const error = await rejection(apply(document));

    expect(error.issues).toContainEqual({
      path: '$.workspaces[1].staff[0].id',
      message:
        `staff member ${fixture.ids.staff.alice} already exists in workspace ${fixture.ids.workspaceId}; ` +
        'an entity cannot move to another workspace',
    });
    expect(await dumpDatabase(store.db)).toEqual(before);
  });

});
