import { noQuery, WORKSPACE, type Samples } from '../../../db/samples.ts';
import * as forms from './forms.ts';

// A well-formed form id that no store holds: its lookup runs and finds nothing (404).
const FORM = '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a';

export const samples = {
  readQuestions: noQuery('parses the questions it is given'),
  listForms: (db) => forms.listForms(db, WORKSPACE),
  findWorkspaceForm: (db) => forms.findWorkspaceForm(db, WORKSPACE, FORM).catch(() => null),
} satisfies Samples<typeof forms>;
