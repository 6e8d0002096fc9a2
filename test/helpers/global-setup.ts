import type { TestProject } from 'vitest/node';
import { announcePrerequisites } from './prerequisites.ts';

/** What the tests use and what is missing, as vitest.config.ts found it; under CI=true a missing one fails the run. */
export default function globalSetup(project: TestProject): void {
  announcePrerequisites(project.getProvidedContext().prerequisites);
}
