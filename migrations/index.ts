import { Migration20261121000001_init } from './Migration20261121000001_init';
import { Migration20261121000002_jobs } from './Migration20261121000002_jobs';
import { Migration20261121000003_estimates } from './Migration20261121000003_estimates';
import { Migration20261121000004_invoices } from './Migration20261121000004_invoices';
import { Migration20261121000005_access } from './Migration20261121000005_access';
import { Migration20261121000006_performance } from './Migration20261121000006_performance';
import { Migration20261121000007_numbering } from './Migration20261121000007_numbering';
import { Migration20261121000008_customer_search } from './Migration20261121000008_customer_search';
import { Migration20261121000009_document_counts } from './Migration20261121000009_document_counts';
import { Migration20261125000010_events } from './Migration20261125000010_events';
import { Migration20261125000011_sync_indexes } from './Migration20261125000011_sync_indexes';
import { Migration20261125000012_documents } from './Migration20261125000012_documents';
import { Migration20261125000013_visits } from './Migration20261125000013_visits';
import { Migration20261125000014_visit_events } from './Migration20261125000014_visit_events';
import { Migration20261125000015_webhooks } from './Migration20261125000015_webhooks';
import { Migration20261125000016_kept_counts } from './Migration20261125000016_kept_counts';
import { Migration20261125000017_feed_page } from './Migration20261125000017_feed_page';
import { Migration20261125000020_access_notify } from './Migration20261125000020_access_notify';
import { Migration20261125000023_customer_search_text } from './Migration20261125000023_customer_search_text';
import { Migration20261125000024_kept_changes } from './Migration20261125000024_kept_changes';
import { Migration20261125000025_customer_event_images } from './Migration20261125000025_customer_event_images';
import { Migration20261127000026_numbering_taken_static } from './Migration20261127000026_numbering_taken_static';

// Applied in this order; each migration has a working down().
export const migrationsList = [
  { name: 'Migration20261121000001_init', class: Migration20261121000001_init },
  { name: 'Migration20261121000002_jobs', class: Migration20261121000002_jobs },
  { name: 'Migration20261121000003_estimates', class: Migration20261121000003_estimates },
  { name: 'Migration20261121000004_invoices', class: Migration20261121000004_invoices },
  { name: 'Migration20261121000005_access', class: Migration20261121000005_access },
  { name: 'Migration20261121000006_performance', class: Migration20261121000006_performance },
  { name: 'Migration20261121000007_numbering', class: Migration20261121000007_numbering },
  { name: 'Migration20261121000008_customer_search', class: Migration20261121000008_customer_search },
  { name: 'Migration20261121000009_document_counts', class: Migration20261121000009_document_counts },
  { name: 'Migration20261125000010_events', class: Migration20261125000010_events },
  { name: 'Migration20261125000011_sync_indexes', class: Migration20261125000011_sync_indexes },
  { name: 'Migration20261125000012_documents', class: Migration20261125000012_documents },
  { name: 'Migration20261125000013_visits', class: Migration20261125000013_visits },
  { name: 'Migration20261125000014_visit_events', class: Migration20261125000014_visit_events },
  { name: 'Migration20261125000015_webhooks', class: Migration20261125000015_webhooks },
  { name: 'Migration20261125000016_kept_counts', class: Migration20261125000016_kept_counts },
  { name: 'Migration20261125000017_feed_page', class: Migration20261125000017_feed_page },
  { name: 'Migration20261125000020_access_notify', class: Migration20261125000020_access_notify },
  { name: 'Migration20261125000023_customer_search_text', class: Migration20261125000023_customer_search_text },
  { name: 'Migration20261125000024_kept_changes', class: Migration20261125000024_kept_changes },
  { name: 'Migration20261125000025_customer_event_images', class: Migration20261125000025_customer_event_images },
  { name: 'Migration20261127000026_numbering_taken_static', class: Migration20261127000026_numbering_taken_static },
];
