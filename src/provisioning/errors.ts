/** One problem with a provisioning document, located by a JSON path such as `$.workspaces[0].staff[1].gameUserId`. */
export interface ProvisioningIssue {
  readonly path: string;
  readonly message: string;
}

/** The document was rejected; nothing was changed. */
export class ProvisioningError extends Error {
  override name = 'ProvisioningError';
  readonly issues: readonly ProvisioningIssue[];
  constructor(issues: readonly ProvisioningIssue[]) {
    super(
      `The provisioning document is invalid:\n${issues.map((issue) => `  ${issue.path}: ${issue.message}`).join('\n')}`,
    );
    this.issues = issues;
  }
}

/** Builds JSON paths: `jsonPath('workspaces', 0, 'staff', 1)` is `$.workspaces[0].staff[1]`. */
export function jsonPath(...segments: ReadonlyArray<string | number>): string {
  let path = '$';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) path += `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}
