import { WORKSPACE, type Samples } from '../../../db/samples.ts';
import * as forms from './repository.ts';

export const samples = {
  listForms: (db) => forms.listForms(db, WORKSPACE),
  findForm: (db) => forms.findForm(db, WORKSPACE, 'form-1'),
} satisfies Samples<typeof forms>;
