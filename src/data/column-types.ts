// Column types shared by every entity, the company's included. A module of its own: the company
// entity needs them, and the tenant-owned entities' base class (./base.entity.ts) names the company.

/** Timestamps: timestamptz with millisecond precision, as JavaScript dates hold them. */
export const TIMESTAMP = { type: 'Date', columnType: 'timestamptz(3)' } as const;
