-- listForms
select "id", "workspace_id", "name", "slug", "status", "description", "department_id", "cooldown_days", "questions" from "application_forms" where "workspace_id" = +?;
-- values: ["workspace-1"]

-- findWorkspaceForm
select id, workspace_id, name, slug, status, description, department_id, cooldown_days, questions
from application_forms where id = +? and workspace_id = +?;
-- values: ["<uuid>","workspace-1"]
