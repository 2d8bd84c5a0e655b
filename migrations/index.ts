import { Migration20261121000001_init } from './Migration20261121000001_init';
import { Migration20261121000002_jobs } from './Migration20261121000002_jobs';
import { Migration20261121000003_estimates } from './Migration20261121000003_estimates';

// Applied in this order; each migration has a working down().
export const migrationsList = [
  { name: 'Migration20261121000001_init', class: Migration20261121000001_init },
  { name: 'Migration20261121000002_jobs', class: Migration20261121000002_jobs },
  { name: 'Migration20261121000003_estimates', class: Migration20261121000003_estimates },
];
