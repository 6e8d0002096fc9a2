import type { Form } from './forms.ts';
import type { FormView } from './schemas.ts';

/** A form as the API shows it. */
export function formView(form: Form): FormView {
  return {
    id: form.id,
    name: form.name,
    slug: form.slug,
    status: form.status,
    description: form.description,
    departmentId: form.departmentId,
    cooldownDays: form.cooldownDays,
    questions: form.questions,
  };
}
