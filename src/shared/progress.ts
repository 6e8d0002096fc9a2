/**
 * How a long operation (provisioning, rebuilding the totals, an erasure) tells how far it is: one call per step
 * with a short description ("workspace 1/3, 4/9 tables, 12,000 rows"). The operations know nothing of where it
 * goes; the command line prints it on stderr when a run takes long (src/cli/progress.ts).
 */
export type Progress = (step: string) => void;

export const noProgress: Progress = () => undefined;

/** 12000 -> "12,000": counts in progress lines, read at a glance. */
export const count = (n: number): string => n.toLocaleString('en-US');
