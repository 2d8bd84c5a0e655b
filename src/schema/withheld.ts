import type { Role } from '../domain/scopes';
import type { FieldMeta } from './fields';

// Money never reaches a technician (docs/people-and-access.md, "What a technician sees"): every
// output field declared of kind `money` (@ApiField(…, 'money')) reads null for them, on both
// surfaces, nested or not. The REST writer (src/rest/case-map.ts) and the GraphQL fields
// (src/graphql/withheld-fields.ts) both decide with these two functions, so a new money field is
// withheld by its declaration alone.

/** Whether an output field is money: its declared kind. */
export const isMoneyField = (meta: Pick<FieldMeta, 'kind' | 'io'>): boolean => meta.io === 'out' && meta.kind === 'money';

/** Whether a caller's answers leave money out: a technician's. */
export const withholdsMoney = (access: { role: Role } | null | undefined): boolean => access?.role === 'technician';
