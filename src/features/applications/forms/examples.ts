/** Examples of the form and intake routes, as the OpenAPI document shows them. */

export const FORM_ID = '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a';
export const DEPARTMENT_ID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
export const meta = { requestId: 'req_7Hq2LmX9cTz4Rb8Kw1Np', correlationId: 'req_7Hq2LmX9cTz4Rb8Kw1Np' };

export const formExample = {
  id: FORM_ID,
  name: 'Moderator application',
  slug: 'moderator',
  status: 'open',
  description: 'Help keep the community friendly.',
  departmentId: DEPARTMENT_ID,
  cooldownDays: 14,
  questions: [
    { id: 'why', label: 'Why do you want to join?', type: 'long_text', required: true, maxLength: 2000, min: null, max: null, options: null },
    { id: 'age', label: 'How old are you?', type: 'number', required: true, maxLength: null, min: 13, max: 99, options: null },
    { id: 'tz', label: 'Time zone', type: 'choice', required: false, maxLength: null, min: null, max: null, options: ['EU', 'NA', 'Asia'] },
  ],
};

export const formListResponseExample = { data: { forms: [formExample] }, meta };
export const formResponseExample = { data: { form: formExample }, meta };
