import { NOW, WORKSPACE, type Samples } from '../db/samples.ts';
import * as journal from './upkeep.ts';

const CUTOFF = NOW - 180 * 24 * 3_600_000;

export const samples = {
  findCommandCopies: {
    everywhere: (db) => journal.findCommandCopies(db, ['submission-1'], ['"gameUserId":"1001"']),
    inWorkspace: (db) => journal.findCommandCopies(db, ['submission-1'], ['"gameUserId":"1001"'], WORKSPACE),
  },
  findEventCopies: {
    everywhere: (db) => journal.findEventCopies(db, ['command-1'], ['"gameUserId":"1001"']),
    inWorkspace: (db) => journal.findEventCopies(db, ['command-1'], ['"gameUserId":"1001"'], WORKSPACE),
  },
  setCommandPayload: (db) => journal.setCommandPayload(db, 'command-1', '{}'),
  setEventPayload: (db) => journal.setEventPayload(db, 'event-1', '{}'),
  deleteEventsBefore: (db) => journal.deleteEventsBefore(db, CUTOFF, 500),
  deleteCommandsBefore: (db) => journal.deleteCommandsBefore(db, CUTOFF, 500),
} satisfies Samples<typeof journal>;
