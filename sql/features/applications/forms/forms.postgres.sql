-- listForms
select "id", "workspace_id", "name", "slug", "status", "description", "department_id", "cooldown_days", "questions" from "application_forms" where "workspace_id" = $1;
-- values: ["workspace-1"]

-- findWorkspaceForm
select id, workspace_id, name, slug, status, description, department_id, cooldown_days, questions
from application_forms where id = $1 and workspace_id = $2;
-- values: ["<uuid>","workspace-1"]
