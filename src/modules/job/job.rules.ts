// A job's status and its side effects (docs/jobs-and-photos.md), free of the ORM so that other
// modules' rules (src/modules/invoice/invoice.rules.ts) can use it. job.entity.ts re-exports the enum.

export enum JobStatus {
  NEW = 'New',
  CONTACTED = 'Contacted',
  SCHEDULED = 'Scheduled',
  IN_PROGRESS = 'In Progress',
  NEEDS_APPROVAL = 'Needs Approval',
  READY_TO_INVOICE = 'Ready to Invoice',
  INVOICED = 'Invoiced',
  COMPLETE = 'Complete',
  ESTIMATE_SENT = 'Estimate Sent',
  ESTIMATE_APPROVED = 'Estimate Approved',
}

export interface JobStatusFields {
  status: JobStatus;
  startedAt: Date | null;
  completedAt: Date | null;
  invoicedAt: Date | null;
}

/**
 * 'In Progress' sets started_at, 'Complete' completed_at, 'Invoiced' invoiced_at, each only while
 * still null. Any status may follow any other. Returns the fields as they become, without changing the job.
 */
export function statusChange(job: JobStatusFields, status: JobStatus, now = new Date()): JobStatusFields {
  return {
    status,
    startedAt: status === JobStatus.IN_PROGRESS ? (job.startedAt ?? now) : job.startedAt,
    completedAt: status === JobStatus.COMPLETE ? (job.completedAt ?? now) : job.completedAt,
    invoicedAt: status === JobStatus.INVOICED ? (job.invoicedAt ?? now) : job.invoicedAt,
  };
}
