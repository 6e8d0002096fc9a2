import { describe, expect, it } from 'vitest';
import { ERASED_APPLICANT, erasedAnswers, identityPatterns, scrubJson, staffAlias } from '../../../src/features/erasure/scrub.ts';

const ID = '734001234567890123';
const STAFF_ID = '0b0e7a52-4f3a-4c39-9a0e-3f6f2f1d9a11';
const SUBMISSION_ID = '5d7c1e7e-2b6b-4d8e-8f59-9c1d7f0e2a33';
const applicant = { gameUserId: ID, gameUsername: 'zq', displayName: 'Zelda', chatUserId: '888' };
const scrub = (value: unknown, aboutErasedSubmission = false) => {
  const text = scrubJson(JSON.stringify(value), { gameUserId: ID, aboutErasedSubmission });
  return text === null ? null : (JSON.parse(text) as unknown);
};

describe('scrubbing a stored copy of one person\'s data', () => {
  it('an applicant anywhere in the copy has its identity fields set to null, its other fields kept', () => {
    expect(scrub({ data: { submission: { id: SUBMISSION_ID, status: 'submitted', applicant } } })).toEqual({
      data: {
        submission: {
          id: SUBMISSION_ID,
          status: 'submitted',
          applicant: { gameUserId: null, gameUsername: null, displayName: null, chatUserId: null },
        },
      },
    });
    expect(scrub({ gameUserId: 1234, displayName: 'x' }, false)).toBeNull();
  });

  it('an erased staff member\'s notice has its reason and a set decision note replaced; another notice is kept', () => {
    const noticeId = '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a';
    const notices = { ids: new Set([noticeId]), erased: 'erased' };
    const copy = (id: string, decisionNote: string | null) => ({ data: { notice: { id, reason: 'wedding', status: 'approved', decisionNote } } });
    const scrubbed = scrubJson(JSON.stringify(copy(noticeId, 'Enjoy')), { gameUserId: ID, aboutErasedSubmission: false, notices });
    expect(JSON.parse(scrubbed ?? 'null')).toEqual({ data: { notice: { id: noticeId, reason: 'erased', status: 'approved', decisionNote: 'erased' } } });
    const pending = scrubJson(JSON.stringify(copy(noticeId, null)), { gameUserId: ID, aboutErasedSubmission: false, notices });
    expect(JSON.parse(pending ?? 'null')).toEqual({ data: { notice: { id: noticeId, reason: 'erased', status: 'approved', decisionNote: null } } });
    const other = '00000000-0000-4000-8000-000000000000';
    expect(scrubJson(JSON.stringify(copy(other, 'Enjoy')), { gameUserId: ID, aboutErasedSubmission: false, notices })).toBeNull();
  });

  it('a numeric game user id is recognised as the same id', () => {
    const numeric = scrubJson(`{"applicant":{"gameUserId":42,"displayName":"Zelda"}}`, { gameUserId: '42', aboutErasedSubmission: false });
    expect(JSON.parse(numeric ?? 'null')).toEqual({ applicant: { gameUserId: null, displayName: null } });
  });

  it('a staff member\'s reference takes the profile\'s anonymised values, its chat user id null', () => {
    const ref = { id: STAFF_ID, displayName: 'Zelda', gameUserId: ID };
    expect(scrub({ data: { shift: { id: 'shift', staff: ref }, staff: ref } })).toEqual({
      data: {
        shift: { id: 'shift', staff: { id: STAFF_ID, displayName: staffAlias(STAFF_ID), gameUserId: staffAlias(STAFF_ID) } },
        staff: { id: STAFF_ID, displayName: staffAlias(STAFF_ID), gameUserId: staffAlias(STAFF_ID) },
      },
    });
  });

  it('notes and answers go only from copies about an erased submission', () => {
    const payload = { submissionId: SUBMISSION_ID, reviewNote: 'about Zelda', reviewerNotes: 'more', score: 80, answers: [{ value: 'x' }] };
    expect(scrub(payload, false)).toBeNull();
    expect(scrub(payload, true)).toEqual({ submissionId: SUBMISSION_ID, reviewNote: null, reviewerNotes: null, score: 80, answers: [] });
  });

  it('another person\'s copy, text that is not JSON and a copy with nothing to change are left alone (null)', () => {
    expect(scrub({ staff: { id: STAFF_ID, displayName: 'Bob', gameUserId: '1002' } })).toBeNull();
    expect(scrub({ staff: { id: STAFF_ID, displayName: 'Bob', gameUserId: `${ID}0` } })).toBeNull();
    expect(scrubJson('not json', { gameUserId: ID, aboutErasedSubmission: true })).toBeNull();
    expect(scrub({ status: 'accepted' }, true)).toBeNull();
  });

  it('the search patterns find every stored form of the identity, and not a longer id', () => {
    const finds = (text: string) => identityPatterns('42').some((pattern) => text.includes(pattern));
    expect(finds(JSON.stringify({ applicant: { gameUserId: '42', displayName: 'x' } }))).toBe(true);
    expect(finds(JSON.stringify({ applicant: { displayName: 'x', gameUserId: 42 } }))).toBe(true);
    expect(finds(JSON.stringify({ applicant: { gameUserId: 42, displayName: 'x' } }))).toBe(true);
    expect(finds(JSON.stringify({ staff: { gameUserId: '420' }, score: 42, note: '42' }))).toBe(false);
  });

  it('stored applicants and answers are emptied in their own shape', () => {
    expect(JSON.parse(ERASED_APPLICANT)).toEqual({ gameUserId: null, gameUsername: null, displayName: null, chatUserId: null });
    expect(erasedAnswers('[{"questionId":"why","value":"x"}]')).toBe('[]');
    expect(erasedAnswers('{"why":"x"}')).toBe('{}');
  });
});
